package slackimport

import (
	"errors"
	"log/slog"
	"path/filepath"
	"testing"
)

// FuzzConvertSlackDay runs one day file of untrusted messages through the whole conversion:
// it fails only with ErrInvalidExport, and what it writes reads back.
func FuzzConvertSlackDay(f *testing.F) {
	f.Add(`[{"type":"message","user":"U1","text":"*hi* <@U2>","ts":"1577836800.000100","reactions":[{"name":"+1","users":["U1","U9"]}]}]`)
	f.Add(`[{"subtype":"file_share","ts":"1","file":{"user":"U2","url_private":"https://files.slack.com/x","name":"../../x","title":"t"}}]`)
	f.Add(`[{"subtype":"thread_broadcast","user":"U1","ts":"2","thread_ts":"1","root":{"bot_id":"B1"}},{"subtype":"bot_message","bot_id":"B1","ts":"3"}]`)
	f.Add(`[null,{"ts":"NaN"},{"user":"U00","ts":"5"},{"files":[{"mode":"tombstone"}],"user":"U1","ts":"6"}]`)
	f.Fuzz(func(t *testing.T, day string) {
		if len(day) > 1<<14 {
			return
		}
		zp := mustZipDir(t, "", map[string]string{
			"users.json":             `[{"id":"U1","name":"a","deleted":false,"real_name":"A","profile":{"email":"a@example.com"}},{"id":"U2","name":"b"}]`,
			"channels.json":          `[{"id":"C1","name":"random","created":1,"members":["U1","U2"],"purpose":{"value":""}}]`,
			"dms.json":               `[{"id":"D1","members":["U1","U2"]}]`,
			"random/2020-01-01.json": day,
			"D1/2020-01-01.json":     day,
		})
		out := filepath.Join(t.TempDir(), "out")
		_, err := ConvertSlack(t.Context(), zp, out, Options{Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			if !errors.Is(err, ErrInvalidExport) {
				t.Fatalf("ConvertSlack(%q): %v", day, err)
			}
			return
		}
		mustReadOutput(t, out)
	})
}
