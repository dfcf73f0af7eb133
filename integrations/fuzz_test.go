package integrations

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRun feeds every integration arbitrary bodies (seeded with the fixtures): Run never
// panics, and it returns messages or one of the package's errors, never both.
func FuzzRun(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*.json")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "push")
	}
	f.Add([]byte(`{"text": "*a* _b_ <http://x|y>"}`), "")
	f.Fuzz(func(t *testing.T, body []byte, event string) {
		for _, in := range All() {
			h := http.Header{}
			h.Set("Content-Type", "application/json")
			if in.EventHeader != "" {
				h.Set(in.EventHeader, event)
			}
			r := &Request{Body: body, Header: h, Params: func(string) (string, bool) { return "", false }}
			msgs, err := in.Run(r)
			if err != nil && msgs != nil {
				t.Fatalf("%s: messages and an error: %v", in.Name, err)
			}
		}
	})
}
