package slackimport

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// mustSyntheticExport writes a Slack export of users users, channels channels with all the
// users as members, and days days of perDay messages in each channel: every tenth message
// mentions a user and starts a thread answered by the next, every fifth has a reaction.
func mustSyntheticExport(b *testing.B, users, channels, days, perDay int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "export.zip")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	zw := zip.NewWriter(f)
	put := func(name string, v any) {
		w, err := zw.Create(name)
		if err != nil {
			b.Fatal(err)
		}
		if err := json.NewEncoder(w).Encode(v); err != nil {
			b.Fatal(err)
		}
	}
	var us []map[string]any
	var ids []string
	for i := range users {
		id := fmt.Sprintf("U%06d", i)
		ids = append(ids, id)
		us = append(us, map[string]any{"id": id, "name": fmt.Sprintf("user%d", i), "deleted": false,
			"real_name": fmt.Sprintf("User %d", i), "is_primary_owner": i == 0, "profile": map[string]any{"email": fmt.Sprintf("user%d@example.com", i)}})
	}
	put("users.json", us)
	var chs []map[string]any
	for c := range channels {
		chs = append(chs, map[string]any{"id": fmt.Sprintf("C%06d", c), "name": fmt.Sprintf("channel-%d", c), "created": 1500000000, "members": ids, "purpose": map[string]any{"value": "talk"}})
	}
	put("channels.json", chs)
	for c := range channels {
		for d := range days {
			day := 1500000000 + d*86400
			var msgs []map[string]any
			for m := range perDay {
				ts := fmt.Sprintf("%d.%06d", day+m, m)
				msg := map[string]any{"type": "message", "user": ids[(m+c)%users], "ts": ts,
					"text": fmt.Sprintf("message %d with *bold* and <https://example.com/%d|a link>", m, m)}
				if m%10 == 0 {
					msg["text"] = fmt.Sprintf("hey <@%s> look at this", ids[(m+1)%users])
					msg["thread_ts"] = ts
				}
				if m%10 == 1 {
					msg["thread_ts"] = fmt.Sprintf("%d.%06d", day+m-1, m-1)
					msg["parent_user_id"] = ids[(m-1+c)%users]
				}
				if m%5 == 0 {
					msg["reactions"] = []map[string]any{{"name": "+1", "users": ids[:3], "count": 3}}
				}
				msgs = append(msgs, msg)
			}
			put(fmt.Sprintf("channel-%d/2017-%02d-%02d.json", c, 1+d/28, 1+d%28), msgs)
		}
	}
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkConvertSlack converts an export of 60,000 messages in 20 channels of 50 members.
func BenchmarkConvertSlack(b *testing.B) {
	zp := mustSyntheticExport(b, 50, 20, 30, 100)
	st, _ := os.Stat(zp)
	b.ReportMetric(float64(st.Size()), "zip-bytes")
	b.ReportAllocs()
	for b.Loop() {
		out := filepath.Join(b.TempDir(), "out")
		s, err := ConvertSlack(b.Context(), zp, out, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if s.Messages != 60000 {
			b.Fatalf("%d messages", s.Messages)
		}
	}
	b.ReportMetric(60000, "messages/op")
}
