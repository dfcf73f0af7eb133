package mattermostimport

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/transfer/zulipdir"
)

type output struct {
	realm       zulipdir.Realm
	messages    []zulipdir.Message
	ums         []zulipdir.UserMessage
	attachments []zulipdir.Attachment
	uploads     []zulipdir.UploadRecord
	emoji       []zulipdir.EmojiRecord
}

func mustReadJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func mustConvert(t *testing.T, exportFile, team string, opts Options) (output, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := ConvertMattermost(t.Context(), exportFile, team, dir, opts); err != nil {
		t.Fatal(err)
	}
	var o output
	mustReadJSON(t, filepath.Join(dir, "realm.json"), &o.realm)
	files, err := filepath.Glob(filepath.Join(dir, "messages-*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		var m struct {
			Message     []zulipdir.Message     `json:"zerver_message"`
			UserMessage []zulipdir.UserMessage `json:"zerver_usermessage"`
		}
		mustReadJSON(t, f, &m)
		o.messages = append(o.messages, m.Message...)
		o.ums = append(o.ums, m.UserMessage...)
	}
	var att struct {
		Attachment []zulipdir.Attachment `json:"zerver_attachment"`
	}
	mustReadJSON(t, filepath.Join(dir, "attachment.json"), &att)
	o.attachments = att.Attachment
	mustReadJSON(t, filepath.Join(dir, "uploads", "records.json"), &o.uploads)
	mustReadJSON(t, filepath.Join(dir, "emoji", "records.json"), &o.emoji)
	var avatars []zulipdir.AvatarRecord
	mustReadJSON(t, filepath.Join(dir, "avatars", "records.json"), &avatars)
	if len(avatars) != 0 {
		t.Errorf("avatars %+v: Mattermost exports have none", avatars)
	}
	return o, dir
}

type user struct {
	Email, FullName, ShortName string
	Role                       int
	Active, Mirror             bool
}

func users(o output) []user {
	var out []user
	for _, u := range o.realm.UserProfile {
		out = append(out, user{u.Email, u.FullName, u.ShortName, u.Role, u.IsActive, u.IsMirrorDummy})
	}
	return out
}

func recipientTypes(o output) map[int64]int {
	m := map[int64]int{}
	for _, r := range o.realm.Recipient {
		m[r.ID] = r.Type
	}
	return m
}

// The gryffindor team of Zulip's test_do_convert_data.
func TestConvertMattermostTeam(t *testing.T) {
	t.Parallel()
	o, dir := mustConvert(t, "testdata/teams/export.json", "gryffindor", Options{})
	if raw, err := os.ReadFile(filepath.Join(dir, "realm.json")); err != nil || bytes.Contains(raw, []byte(`"password"`)) {
		t.Errorf("realm.json gives users a password (or cannot be read: %v)", err)
	}
	if d := o.realm.Realm[0]; d.Description != "Organization imported from Mattermost!" || d.StringID != "gryffindor" {
		t.Errorf("realm %+v", d)
	}
	wantUsers := []user{
		{"ron@zulip.com", "Ron Weasley", "ron", zulipdir.RoleMember, true, false},
		{"harry@zulip.com", "Harry Potter", "harry", zulipdir.RoleOwner, true, false},
		// Posted in gryffindor, but is in slytherin.
		{"snape@zulip.com", "Severus Snape", "snape", zulipdir.RoleMember, false, true},
	}
	if diff := cmp.Diff(wantUsers, users(o)); diff != "" {
		t.Errorf("users (-want +got):\n%s", diff)
	}
	type stream struct {
		Name, Description string
		InviteOnly        bool
	}
	var streams []stream
	for _, s := range o.realm.Stream {
		streams = append(streams, stream{s.Name, s.Description, s.InviteOnly})
	}
	wantStreams := []stream{
		{"Gryffindor common room", "A place for talking about Gryffindor common room", false},
		{"Gryffindor quidditch team", "A place for talking about Gryffindor quidditch team", false},
		{"Dumbledores army", "A place for talking about Dumbledores army", true},
	}
	if diff := cmp.Diff(wantStreams, streams); diff != "" {
		t.Errorf("channels (-want +got):\n%s", diff)
	}
	if len(o.realm.DefaultStream) != 0 || len(o.realm.Huddle) != 0 || !o.realm.SortByDate {
		t.Errorf("default channels %v, huddles %v, sort_by_date %v", o.realm.DefaultStream, o.realm.Huddle, o.realm.SortByDate)
	}
	types := recipientTypes(o)
	if len(types) != 6 {
		t.Errorf("%d recipients, want 6", len(types))
	}
	subs := zulipdir.NewSubscriberMap(o.realm.Subscription)
	for rid, typ := range types {
		if typ == zulipdir.RecipientStream && !slices.Equal(subs[rid], []int64{1, 2}) {
			t.Errorf("channel recipient %d has subscribers %v, want ron and harry", rid, subs[rid])
		}
	}
	// Every post and reply of the team, in time order; none of slytherin's.
	if len(o.messages) != 17 {
		t.Errorf("%d messages, want 17", len(o.messages))
	}
	if !slices.IsSortedFunc(o.messages, func(a, b zulipdir.Message) int { return int(a.DateSent - b.DateSent) }) {
		t.Error("messages are not in time order")
	}
	for _, m := range o.messages {
		if m.Topic != defaultTopic || types[m.Recipient] != zulipdir.RecipientStream || strings.Contains(m.Content, "malfoy") {
			t.Errorf("message %+v", m)
		}
	}
	first := o.messages[0]
	if first.Content != "harry joined the team." || first.Sender != 2 || first.DateSent != 1553165141 {
		t.Errorf("first message %+v", first)
	}
	var welcome zulipdir.Message
	for _, m := range o.messages {
		if strings.HasSuffix(m.Content, "Welcome mate!") {
			welcome = m
		}
	}
	if welcome.Content != "@**Ron Weasley** Welcome mate!" {
		t.Errorf("mention converted to %q", welcome.Content)
	}
	for _, um := range o.ums {
		if um.Message == welcome.ID && (um.UserProfile == 1) != (um.FlagsMask&zulipdir.FlagMentioned != 0) {
			t.Errorf("user message %+v of the mention", um)
		}
	}
	type reaction struct {
		User             int64
		Name, Code, Type string
	}
	var got []reaction
	for _, r := range o.realm.Reaction {
		got = append(got, reaction{r.UserProfile, r.EmojiName, r.EmojiCode, r.ReactionType})
	}
	// malfoy's reaction is skipped: he is not converted; so is grin, which is not one of
	// Zulip's emoji names.
	want := []reaction{
		{2, "tick", "2", zulipdir.ReactionRealm}, {1, "smile", "263a", zulipdir.ReactionUnicode},
		{1, "world_map", "1f5fa", zulipdir.ReactionUnicode}, {2, "apple", "1f34e", zulipdir.ReactionUnicode},
		{1, "rocket", "1f680", zulipdir.ReactionUnicode},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reactions (-want +got):\n%s", diff)
	}
	// The custom emoji: rows, records and the copied images (Zulip's test_write_emoticon_data).
	if len(o.realm.RealmEmoji) != 2 || o.realm.RealmEmoji[0].FileName != "peerdium" || o.realm.RealmEmoji[1].Name != "tick" {
		t.Errorf("realm emoji %+v", o.realm.RealmEmoji)
	}
	for i, rec := range o.emoji {
		src := []string{"h15ni7kf1bnj7jeua4qhmctsdo", "7u7x8ytgp78q8jir81o9ejwwnr"}[i]
		want, err := os.ReadFile(filepath.Join("testdata/teams/exported_emoji", src, "image.png"))
		if err != nil {
			t.Fatal(err)
		}
		gotBytes, err := os.ReadFile(filepath.Join(dir, "emoji", filepath.FromSlash(rec.Path)))
		if err != nil || !bytes.Equal(want, gotBytes) || rec.Path != "1/emoji/images/"+rec.Name {
			t.Errorf("emoji record %+v: %v", rec, err)
		}
	}
}

// The slytherin team: its guest, and snape a member again.
func TestConvertMattermostOtherTeam(t *testing.T) {
	t.Parallel()
	o, _ := mustConvert(t, "testdata/teams/export.json", "slytherin", Options{})
	want := []user{
		{"malfoy@zulip.com", "malfoy", "malfoy", zulipdir.RoleOwner, true, false},
		{"pansy@zulip.com", "pansy", "pansy", zulipdir.RoleOwner, true, false},
		{"snape@zulip.com", "Severus Snape", "snape", zulipdir.RoleMember, true, false},
		{"sirius@zulip.com", "Sirius Black", "sirius", zulipdir.RoleGuest, true, false},
	}
	if diff := cmp.Diff(want, users(o)); diff != "" {
		t.Errorf("users (-want +got):\n%s", diff)
	}
	if len(o.messages) != 4 {
		t.Errorf("%d messages, want 4", len(o.messages))
	}
	// harry reacted to slytherin's posts, but is not in slytherin.
	if len(o.realm.Reaction) != 0 {
		t.Errorf("reactions %+v, want none", o.realm.Reaction)
	}
}

// Zulip's test_do_convert_data_with_direct_messages.
func TestConvertMattermostDirectMessages(t *testing.T) {
	t.Parallel()
	o, dir := mustConvert(t, "testdata/direct_channel/export.json", "", Options{})
	wantUsers := []user{
		{"ginny@zulip.com", "Ginny Weasley", "ginny", zulipdir.RoleMember, true, false},
		{"ron@zulip.com", "Ron Weasley", "ron", zulipdir.RoleMember, true, false},
		{"harry@zulip.com", "Harry Potter", "harry", zulipdir.RoleOwner, true, false},
		// In no team; sent a direct message.
		{"voldemort@zulip.com", "Tom Riddle", "voldemort", zulipdir.RoleMember, false, true},
	}
	if diff := cmp.Diff(wantUsers, users(o)); diff != "" {
		t.Errorf("users (-want +got):\n%s", diff)
	}
	types := recipientTypes(o)
	if len(types) != 8 || len(o.realm.Huddle) != 1 || o.realm.Huddle[0].GroupSize != 3 {
		t.Errorf("recipients %v, huddles %+v", types, o.realm.Huddle)
	}
	byType := map[int][]zulipdir.Message{}
	for _, m := range o.messages {
		byType[types[m.Recipient]] = append(byType[types[m.Recipient]], m)
	}
	stream, huddle, personal := byType[zulipdir.RecipientStream], byType[zulipdir.RecipientHuddle], byType[zulipdir.RecipientPersonal]
	if len(stream) != 4 || len(huddle) != 3 || len(personal) != 4 {
		t.Fatalf("%d channel, %d group and %d direct messages", len(stream), len(huddle), len(personal))
	}
	if stream[0].Sender != 2 || stream[0].Content != "ron joined the channel." {
		t.Errorf("first channel message %+v", stream[0])
	}
	if m := stream[3]; !regexp.MustCompile(`^Looks like this channel is empty\n\n\[this is a file\]\(/user_uploads/1/[0-9a-f]+/[\w-]+/this-is-a-file\)$`).MatchString(m.Content) ||
		!m.HasAttachment || m.HasImage || !m.HasLink {
		t.Errorf("message with a file %+v", m)
	}
	if m := huddle[0]; m.Sender != 1 || m.Content != "Who is going to Hogsmeade this weekend?" || m.Topic != "" {
		t.Errorf("first group message %+v", m)
	}
	if m := personal[0]; m.Sender != 2 || !regexp.MustCompile(`^hey harry\n\n\[harry-ron.jpg\]\(/user_uploads/.+\)$`).MatchString(m.Content) ||
		!m.HasAttachment || !m.HasImage || !m.HasLink {
		t.Errorf("first direct message %+v", m)
	}
	recipients := map[int64]bool{}
	for _, m := range personal {
		recipients[m.Recipient] = true
	}
	if len(recipients) != 3 {
		t.Errorf("direct messages go to %d recipients, want 3", len(recipients))
	}
	// Each direct message is private for its sender and its recipient.
	for _, um := range o.ums {
		if um.Message == personal[0].ID && (um.FlagsMask&zulipdir.FlagIsPrivate == 0 || (um.UserProfile != 2 && um.UserProfile != 3)) {
			t.Errorf("user message %+v", um)
		}
	}
	// The attachments are copied, owned by their sender (Zulip's test_process_message_attachments).
	if len(o.attachments) != 2 || len(o.uploads) != 2 {
		t.Fatalf("attachments %+v, uploads %+v", o.attachments, o.uploads)
	}
	for _, a := range o.attachments {
		if a.FileName == "harry-ron.jpg" && (a.Owner != 2 || !a.IsRealmPublic) {
			t.Errorf("attachment %+v", a)
		}
	}
	for _, u := range o.uploads {
		src := "this is a file"
		if strings.HasSuffix(u.Path, "harry-ron.jpg") {
			src = "harry-ron.jpg"
			if u.UserProfileEmail != "ron@zulip.com" {
				t.Errorf("upload %+v", u)
			}
		}
		matches, err := filepath.Glob(filepath.Join("testdata/direct_channel/data/20210622/teams/noteam/channels/*/users/*/*", src))
		if err != nil || len(matches) != 1 {
			t.Fatalf("fixture %s: %v %v", src, matches, err)
		}
		want, _ := os.ReadFile(matches[0])
		got, err := os.ReadFile(filepath.Join(dir, "uploads", filepath.FromSlash(u.Path)))
		if err != nil || !bytes.Equal(want, got) || u.Size != int64(len(want)) {
			t.Errorf("upload %+v: %v", u, err)
		}
	}
}

func TestConvertMattermostMaskContent(t *testing.T) {
	t.Parallel()
	o, _ := mustConvert(t, "testdata/teams/export.json", "gryffindor", Options{MaskContent: true})
	if got := o.messages[0].Content; got != "xxxxx xxxxxx xxx xxxx." {
		t.Errorf("masked %q", got)
	}
}

// The mention cases of Zulip's test_get_mentioned_user_ids, and wildcards.
func TestConvertMentions(t *testing.T) {
	t.Parallel()
	c := &conversion{
		userID: map[string]int64{"harry": 1, "ron": 2, "harry_": 3, "ha_rry.": 4},
		users: map[int64]zulipdir.UserProfile{
			1: {FullName: "Harry Potter"}, 2: {FullName: "Ron Weasley"}, 3: {FullName: "Harry Underscore"}, 4: {FullName: "Ha Rry"},
		},
	}
	tests := []struct {
		in, want  string
		mentioned []int64
		wildcard  bool
	}{
		{"Hello @harry", "Hello @**Harry Potter**", []int64{1}, false},
		{"Hello", "Hello", nil, false},
		{"@harry How are you?", "@**Harry Potter** How are you?", []int64{1}, false},
		{"@harry @ron Where are you folks?", "@**Harry Potter** @**Ron Weasley** Where are you folks?", []int64{1, 2}, false},
		{"@harry.com How are you?", "@harry.com How are you?", nil, false},
		{"hello@harry.com How are you?", "hello@harry.com How are you?", nil, false},
		{"Hello @harry_", "Hello @**Harry Underscore**", []int64{3}, false},
		{"Hello @ha_rry.", "Hello @**Ha Rry**", []int64{4}, false},
		{"Hello @ron.", "Hello @ron.", nil, false},
		{"Hello @ron_", "Hello @ron_", nil, false},
		{"@channel @all and @here", "@**all** @**all** and @**all**", nil, true},
		{"@allison is not everyone", "@allison is not everyone", nil, false},
		{"@", "@", nil, false},
	}
	for _, tc := range tests {
		got, mentioned, wildcard := c.convertMentions(tc.in)
		if got != tc.want || wildcard != tc.wildcard {
			t.Errorf("convertMentions(%q) = %q, %v; want %q, %v", tc.in, got, wildcard, tc.want, tc.wildcard)
		}
		if diff := cmp.Diff(tc.mentioned, mentioned); diff != "" {
			t.Errorf("convertMentions(%q) mentioned (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestTeams(t *testing.T) {
	t.Parallel()
	got, err := Teams(t.Context(), "testdata/teams/export.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"gryffindor", "slytherin"}, got); diff != "" {
		t.Errorf("teams (-want +got):\n%s", diff)
	}
}

func TestConvertMattermostRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, team, want string
	}{
		{"no such team", "testdata/teams/export.json", "hufflepuff", `no team "hufflepuff"`},
		{"several teams and none chosen", "testdata/teams/export.json", "", "choose a team of the export: gryffindor, slytherin"},
		{"no export", "testdata/none.json", "", "no such file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := ConvertMattermost(t.Context(), tc.file, tc.team, filepath.Join(t.TempDir(), "out"), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	t.Run("output not empty", func(t *testing.T) {
		t.Parallel()
		out := t.TempDir()
		if err := os.WriteFile(filepath.Join(out, "x"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := ConvertMattermost(t.Context(), "testdata/direct_channel/export.json", "", out, Options{})
		if !errors.Is(err, zulipdir.ErrNotEmpty) {
			t.Errorf("err = %v", err)
		}
	})
}

// Attachment and emoji paths cannot reach outside the export's directory, by ".." or by a
// symbolic link; such files are skipped, the rest converts.
func TestConvertMattermostPathsStayInside(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	secret := filepath.Join(base, "secret.txt")
	if err := os.WriteFile(secret, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	exp := filepath.Join(base, "export")
	if err := os.MkdirAll(filepath.Join(exp, "data", "f"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(exp, "data", "f", "ok.txt"), []byte("fine"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(exp, "data", "f", "link.txt")); err != nil {
		t.Fatal(err)
	}
	lines := []string{
		`{"type":"version","version":1}`,
		`{"type":"team","team":{"name":"t","display_name":"T"}}`,
		`{"type":"channel","channel":{"team":"t","name":"c","display_name":"C","type":"O"}}`,
		`{"type":"user","user":{"username":"u","email":"u@example.com","teams":[{"name":"t","roles":"team_user","channels":[{"name":"c","roles":"channel_user"}]}]}}`,
		`{"type":"post","post":{"team":"t","channel":"c","user":"u","message":"files","create_at":1000,"attachments":[{"path":"../../secret.txt"},{"path":"f/link.txt"},{"path":"/etc/passwd"},{"path":"f/ok.txt"}]}}`,
		`{"type":"emoji","emoji":{"name":"evil","image":"../secret.txt"}}`,
		`{"type":"emoji","emoji":{"name":"../../x","image":"data/f/ok.txt"}}`,
	}
	file := filepath.Join(exp, "export.json")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	o, dir := mustConvert(t, file, "", Options{})
	if len(o.uploads) != 1 || !strings.HasSuffix(o.uploads[0].Path, "/ok.txt") || len(o.realm.RealmEmoji) != 0 {
		t.Errorf("uploads %+v, emoji %+v", o.uploads, o.realm.RealmEmoji)
	}
	if len(o.messages) != 1 || strings.Count(o.messages[0].Content, "/user_uploads/") != 1 {
		t.Errorf("messages %+v", o.messages)
	}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte("secret")) && !strings.HasSuffix(p, ".json") {
				t.Errorf("%s holds the file outside the export", p)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A reply by someone outside the team keeps its author, as an inactive mirror user.
func TestConvertMattermostReplyFromOutside(t *testing.T) {
	t.Parallel()
	lines := []string{
		`{"type":"version","version":1}`,
		`{"type":"team","team":{"name":"t"}}`,
		`{"type":"team","team":{"name":"other"}}`,
		`{"type":"channel","channel":{"team":"t","name":"c","display_name":"C","type":"O"}}`,
		`{"type":"user","user":{"username":"u","email":"u@example.com","teams":[{"name":"t","roles":"team_user","channels":[{"name":"c","roles":"channel_user"}]}]}}`,
		`{"type":"user","user":{"username":"v","email":"v@example.com","first_name":"Vee","teams":[{"name":"other","roles":"team_user"}]}}`,
		`{"type":"post","post":{"team":"t","channel":"c","user":"u","message":"question","create_at":1000,"replies":[{"user":"v","message":"answer","create_at":2000}]}}`,
	}
	file := filepath.Join(t.TempDir(), "export.json")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	o, _ := mustConvert(t, file, "t", Options{})
	want := []user{
		{"u@example.com", "u", "u", zulipdir.RoleMember, true, false},
		{"v@example.com", "Vee", "v", zulipdir.RoleMember, false, true},
	}
	if diff := cmp.Diff(want, users(o)); diff != "" {
		t.Errorf("users (-want +got):\n%s", diff)
	}
	if len(o.messages) != 2 || o.messages[1].Content != "answer" || o.messages[1].Sender != 2 {
		t.Errorf("messages %+v", o.messages)
	}
}
