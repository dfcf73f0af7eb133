package mattermostimport

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// mustSyntheticExport writes a bulk export of one team with users users, all members of
// channels channels, and posts posts per channel, each with a reply and every fifth with a
// reaction and a mention.
func mustSyntheticExport(b *testing.B, users, channels, posts int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "export.json")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	put := func(typ string, v any) {
		if err := enc.Encode(map[string]any{"type": typ, typ: v}); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := w.WriteString(`{"type":"version","version":1}` + "\n"); err != nil {
		b.Fatal(err)
	}
	put("team", map[string]any{"name": "team", "display_name": "Team"})
	var chans []map[string]any
	for c := range channels {
		name := fmt.Sprintf("channel-%d", c)
		put("channel", map[string]any{"team": "team", "name": name, "display_name": name, "type": "O", "purpose": "talk"})
		chans = append(chans, map[string]any{"name": name, "roles": "channel_user"})
	}
	for u := range users {
		put("user", map[string]any{"username": fmt.Sprintf("user%d", u), "email": fmt.Sprintf("user%d@example.com", u),
			"first_name": "User", "last_name": fmt.Sprint(u), "teams": []map[string]any{{"name": "team", "roles": "team_user", "channels": chans}}})
	}
	for c := range channels {
		for p := range posts {
			post := map[string]any{"team": "team", "channel": fmt.Sprintf("channel-%d", c), "user": fmt.Sprintf("user%d", p%users),
				"message": fmt.Sprintf("post %d with **bold** and a [link](https://example.com/%d)", p, p), "create_at": int64(1500000000000 + p*60000 + c),
				"replies": []map[string]any{{"user": fmt.Sprintf("user%d", (p+1)%users), "message": "a reply", "create_at": int64(1500000000000 + p*60000 + 30000)}}}
			if p%5 == 0 {
				post["message"] = fmt.Sprintf("@user%d have a look", (p+2)%users)
				post["reactions"] = []map[string]any{{"user": "user0", "emoji_name": "+1"}}
			}
			put("post", post)
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkConvertMattermost converts a team of 60,000 messages (30,000 posts and their
// replies) in 20 channels of 50 members.
func BenchmarkConvertMattermost(b *testing.B) {
	exp := mustSyntheticExport(b, 50, 20, 1500)
	st, _ := os.Stat(exp)
	b.ReportMetric(float64(st.Size()), "export-bytes")
	b.ReportAllocs()
	for b.Loop() {
		s, err := ConvertMattermost(b.Context(), exp, "team", filepath.Join(b.TempDir(), "out"), Options{})
		if err != nil {
			b.Fatal(err)
		}
		if s.Messages != 60000 {
			b.Fatalf("%d messages", s.Messages)
		}
	}
	b.ReportMetric(60000, "messages/op")
}
