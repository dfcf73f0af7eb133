package main

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// eventsBody is a GET /events body as the server writes it: each event's members, then
// its "id" last.
func eventsBody(t testing.TB, contents []string, heartbeat bool) []byte {
	t.Helper()
	b := []byte(`{"result":"success","msg":"","events":[`)
	id := 7
	for i, c := range contents {
		if i > 0 {
			b = append(b, ',')
		}
		msg, err := json.Marshal(map[string]any{"type": "message", "message": map[string]any{"id": 900 + i, "content": c}, "flags": []string{}})
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, msg[:len(msg)-1]...)
		b = append(b, `,"id":`...)
		b = strconv.AppendInt(b, int64(id), 10)
		b = append(b, '}')
		id++
	}
	if heartbeat {
		if len(contents) > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":"heartbeat","id":`...)
		b = strconv.AppendInt(b, int64(id), 10)
		b = append(b, '}')
	}
	return append(b, `],"queue_id":"q:1"}`+"\n"...)
}

// checkScan compares scanEvents with decoding the JSON.
func checkScan(t *testing.T, body []byte) {
	t.Helper()
	var got, want []time.Time
	gotLast, err := scanEvents(body, func(at time.Time) { got = append(got, at) })
	if err != nil {
		t.Fatal(err)
	}
	wantLast, err := decodeEvents(body, func(at time.Time) { want = append(want, at) })
	if err != nil {
		t.Fatal(err)
	}
	if gotLast != wantLast || !slices.EqualFunc(got, want, time.Time.Equal) {
		t.Errorf("body %s: scanned %d %v, decoded %d %v", body, gotLast, got, wantLast, want)
	}
}

// TestScanEvents: the scan finds what decoding the JSON finds, whatever the messages say.
func TestScanEvents(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		contents  []string
		heartbeat bool
	}{
		{nil, false},
		{nil, true},
		{[]string{"message 1 " + stampPrefix + "1700000000000000001"}, false},
		{[]string{"a", stampPrefix + "5", `"id":99} ],"queue_id":"x"}`}, true},
		{[]string{`quote " and \ backslash`, stampPrefix + "123 trailing", "<b>&amp;</b>"}, false},
	} {
		checkScan(t, eventsBody(t, tc.contents, tc.heartbeat))
	}
	// Other shapes are decoded.
	checkScan(t, []byte(`{"events":[{"id":3,"type":"heartbeat"}],"result":"success"}`))
}

// FuzzScanEvents: for any message content, the scan agrees with decoding the JSON (the
// scan reads every stamp, decoding the first of each message: loadgen's messages hold one).
func FuzzScanEvents(f *testing.F) {
	f.Add("hello", "message 2 "+stampPrefix+"42")
	f.Add(`],"queue_id":`, `"id":1}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		if strings.Count(a, stampPrefix) > 1 || strings.Count(b, stampPrefix) > 1 {
			t.Skip()
		}
		checkScan(t, eventsBody(t, []string{a, b}, false))
	})
}
