package mattermostimport

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecodeLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		in       string
		wantType string
		wantErr  bool
	}{
		{"version", `{"type":"version","version":1}`, "version", false},
		{"team", `{"type":"team","team":{"name":"gryffindor","display_name":"Gryffindor"}}`, "team", false},
		{"direct post", `{"type":"direct_post","direct_post":{"channel_members":["ron","harry"],"user":"ron","message":"hey","create_at":1}}`, "direct_post", false},
		{"other types are kept and ignored", `{"type":"scheme","scheme":{"name":"x"}}`, "scheme", false},
		{"no type", `{"team":{"name":"x"}}`, "", true},
		{"team without its object", `{"type":"team"}`, "", true},
		{"user without a username", `{"type":"user","user":{"email":"a@b.c"}}`, "", true},
		{"post of the wrong shape", `{"type":"post","post":[1,2]}`, "", true},
		{"not JSON", `{"type":`, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			l, err := decodeLine([]byte(tc.in))
			if tc.wantErr {
				if !errors.Is(err, ErrInvalidExport) {
					t.Errorf("decodeLine(%s) error %v, want ErrInvalidExport", tc.in, err)
				}
				return
			}
			if err != nil || l.Type != tc.wantType {
				t.Errorf("decodeLine(%s) = %q, %v; want %q", tc.in, l.Type, err, tc.wantType)
			}
		})
	}
}

// What Zulip's test_mattermost_data_file_to_dict reads from its fixtures.
func TestReadExportFixtures(t *testing.T) {
	t.Parallel()
	d, err := readExportFile(t.Context(), "testdata/teams/export.json", Limits{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	if len(d.teams) != 2 || d.teams[0].Name != "gryffindor" || len(d.channels) != 5 ||
		d.channels[0].Name != "gryffindor-common-room" || d.channels[0].Team != "gryffindor" ||
		len(d.users) != 6 || d.users[1].Username != "harry" || len(d.users[1].Teams) != 1 ||
		len(d.posts) != 20 || d.posts[0].Channel != "dumbledores-army" || len(d.posts[0].Replies) != 1 ||
		len(d.emoji) != 2 || d.emoji[0].Name != "peerdium" {
		t.Errorf("teams export read as %+v", d)
	}
	d, err = readExportFile(t.Context(), "testdata/direct_channel/export.json", Limits{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	if len(d.posts) != 4 || d.posts[0].User != "ron" || d.posts[0].Replies != nil || len(d.directPosts) != 7 ||
		d.directPosts[0].Message != "hey harry" || len(d.directChannels) != 2 {
		t.Errorf("direct_channel export read as %+v", d)
	}
	if diff := cmp.Diff([]string{"ron", "harry"}, d.directPosts[0].ChannelMembers); diff != "" {
		t.Errorf("channel members (-want +got):\n%s", diff)
	}
}

func TestReadExportLimits(t *testing.T) {
	t.Parallel()
	valid := `{"type":"version","version":1}` + "\n" + `{"type":"team","team":{"name":"t"}}` + "\n"
	tests := []struct {
		name      string
		in        string
		maxLine   int
		maxTotal  int64
		wantErr   string
		wantTeams int
	}{
		{"within limits", valid, 100, 1000, "", 1},
		{"blank lines", "\n\n" + valid + "\n", 100, 1000, "", 1},
		{"line too long", valid, 20, 1000, "longer than 20 bytes", 0},
		{"file too large", valid, 100, 40, "larger than 40 bytes", 0},
		{"bad line", valid + "{\n", 100, 1000, "line 3", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, err := readExport(strings.NewReader(tc.in), tc.maxLine, tc.maxTotal)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, ErrInvalidExport) {
					t.Errorf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || len(d.teams) != tc.wantTeams {
				t.Errorf("read %+v, %v", d, err)
			}
		})
	}
}

// FuzzDecodeLine checks that any line decodes or fails with ErrInvalidExport, and that a
// decoded line of a known type carries its object.
func FuzzDecodeLine(f *testing.F) {
	for _, s := range []string{
		`{"type":"version","version":1}`,
		`{"type":"post","post":{"team":"t","channel":"c","user":"u","message":"m","create_at":1,"replies":[{"user":"v","message":"r"}],"attachments":[{"path":"a/b"}]}}`,
		`{"type":"user","user":{"username":"ron","teams":[{"name":"t","roles":"team_admin","channels":[{"name":"c","roles":"channel_user"}]}]}}`,
		`{"type":"emoji","emoji":{"name":"tick","image":"../x"}}`, `{"type":"direct_channel","direct_channel":{"members":null}}`,
		`{}`, `[]`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := decodeLine(b)
		if err != nil {
			if !errors.Is(err, ErrInvalidExport) {
				t.Fatalf("decodeLine(%q) error %v is not ErrInvalidExport", b, err)
			}
			return
		}
		d := &exportData{}
		d.add(l) // must not panic: a known type has its object
		switch l.Type {
		case "team":
			if len(d.teams) != 1 || d.teams[0].Name == "" {
				t.Fatalf("team line %q decoded as %+v", b, d.teams)
			}
		case "user":
			if len(d.users) != 1 || d.users[0].Username == "" {
				t.Fatalf("user line %q decoded as %+v", b, d.users)
			}
		}
	})
}
