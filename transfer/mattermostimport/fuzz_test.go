package mattermostimport

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzConvertMattermost runs an untrusted export through the whole conversion: it fails only
// with ErrInvalidExport or for the lack of a team, and what it writes reads back.
func FuzzConvertMattermost(f *testing.F) {
	head := `{"type":"version","version":1}
{"type":"team","team":{"name":"t"}}
{"type":"channel","channel":{"team":"t","name":"c","type":"P"}}
{"type":"user","user":{"username":"u","email":"u@example.com","teams":[{"name":"t","roles":"team_admin","channels":[{"name":"c","roles":"channel_user"}]}]}}
`
	f.Add(head + `{"type":"post","post":{"team":"t","channel":"c","user":"u","message":"@u @all","create_at":1000,"reactions":[{"user":"u","emoji_name":"+1"}],"replies":[{"user":"v","message":"r"}]}}`)
	f.Add(head + `{"type":"direct_channel","direct_channel":{"members":["u","v","w"]}}
{"type":"direct_post","direct_post":{"channel_members":["u","v","w"],"user":"u","message":"hi","attachments":[{"path":"../../etc/passwd"}]}}`)
	f.Add(head + `{"type":"direct_post","direct_post":{"channel_members":["u"],"user":"u","message":"me"}}
{"type":"emoji","emoji":{"name":"x","image":"/abs"}}`)
	f.Fuzz(func(t *testing.T, export string) {
		if len(export) > 1<<14 {
			return
		}
		dir := t.TempDir()
		file := filepath.Join(dir, "export.json")
		if err := os.WriteFile(file, []byte(export), 0o600); err != nil {
			t.Fatal(err)
		}
		teams, err := Teams(t.Context(), file, Options{})
		if err != nil {
			if !errors.Is(err, ErrInvalidExport) {
				t.Fatalf("Teams: %v", err)
			}
			return
		}
		if len(teams) == 0 {
			return
		}
		out := filepath.Join(t.TempDir(), "out")
		if _, err := ConvertMattermost(t.Context(), file, teams[0], out, Options{}); err != nil {
			t.Fatalf("ConvertMattermost of a readable export: %v", err)
		}
		var realm map[string]any
		mustReadJSON(t, filepath.Join(out, "realm.json"), &realm)
	})
}
