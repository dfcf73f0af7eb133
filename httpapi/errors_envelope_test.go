package httpapi

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// appenderResult is a result that writes its own JSON.
type appenderResult struct {
	json string
	err  error
}

func (r appenderResult) AppendJSON(b []byte) ([]byte, error) { return append(b, r.json...), r.err }

// TestSuccessEnvelope: the envelope around results encoded by encoding/json and by their own
// AppendJSON, empty ones, ignored parameters, and results that are no object (a 500).
func TestSuccessEnvelope(t *testing.T) {
	t.Parallel()
	h := New(nil, Options{})
	tests := []struct {
		name    string
		result  any
		ignored []string
		want    string
		status  int
	}{
		{"nil", nil, nil, `{"result":"success","msg":""}` + "\n", 200},
		{"marshaled", map[string]int{"a": 1}, nil, `{"result":"success","msg":"","a":1}` + "\n", 200},
		{"empty struct", struct{}{}, []string{"x"}, `{"result":"success","msg":"","ignored_parameters_unsupported":["x"]}` + "\n", 200},
		{"appender", appenderResult{json: `{"b":[1,2]}`}, []string{"y", "z"}, `{"result":"success","msg":"","b":[1,2],"ignored_parameters_unsupported":["y","z"]}` + "\n", 200},
		{"empty appender", appenderResult{json: `{}`}, nil, `{"result":"success","msg":""}` + "\n", 200},
		{"appender error", appenderResult{json: `{"b":1}`, err: errors.New("boom")}, nil, `{"msg":"Internal server error","result":"error"}` + "\n", 500},
		{"not an object", []int{1}, nil, `{"msg":"Internal server error","result":"error"}` + "\n", 500},
		{"appender not an object", appenderResult{json: `[1]`}, nil, `{"msg":"Internal server error","result":"error"}` + "\n", 500},
	}
	for _, tt := range tests {
		for _, pooled := range []bool{false, true} {
			w := httptest.NewRecorder()
			if pooled {
				h.writeSuccess(w, tt.result, tt.ignored)
			} else {
				writeSuccess(w, tt.result, tt.ignored)
			}
			if w.Code != tt.status || w.Body.String() != tt.want {
				t.Errorf("%s (pooled %v): %d %s, want %d %s", tt.name, pooled, w.Code, w.Body, tt.status, tt.want)
			}
			if tt.status == http.StatusOK && w.Header().Get("Content-Length") != strconv.Itoa(len(tt.want)) {
				t.Errorf("%s: Content-Length %q for %d bytes", tt.name, w.Header().Get("Content-Length"), len(tt.want))
			}
		}
	}
}
