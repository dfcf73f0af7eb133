package slackimport

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/transfer/zulipdir"
)

func convertWorkspace(t *testing.T, opts Options) (output, string, Stats) {
	t.Helper()
	zp := mustZipDir(t, "testdata/workspace", nil)
	out := filepath.Join(t.TempDir(), "out")
	st, err := ConvertSlack(t.Context(), zp, out, opts)
	if err != nil {
		t.Fatal(err)
	}
	return mustReadOutput(t, out), out, st
}

func TestConvertSlackUsers(t *testing.T) {
	t.Parallel()
	o, dir, st := convertWorkspace(t, Options{Domain: "example.org"})
	type user struct {
		ID                                int64
		Email, FullName, Timezone, Avatar string
		Role                              int
		Active, Mirror, Bot               bool
	}
	var got []user
	for _, u := range o.realm.UserProfile {
		got = append(got, user{u.ID, u.Email, u.FullName, u.Timezone, u.AvatarSource, u.Role, u.IsActive, u.IsMirrorDummy, u.IsBot})
	}
	want := []user{
		{1, "u6006p1cn@example.org", "Josef K.", "Europe/Amsterdam", "G", zulipdir.RoleOwner, true, false, false},
		{2, "u8w3qfgq5@example.org", "Rhea Parekh", "Asia/Kolkata", "G", zulipdir.RoleOwner, true, false, false},
		{3, "u8x25ebab@example.org", "Rishi हिन्दी 汉语", "Asia/Kolkata", "G", zulipdir.RoleAdmin, true, false, false},
		{4, "u8vahevuy@example.org", "Steve Howell", "America/New_York", "G", zulipdir.RoleMember, true, false, false},
		// In #general's members and a sender, but not in users.json.
		{5, "u0gone000@slack-users.example.org", "U0GONE000", "America/New_York", "G", zulipdir.RoleMember, false, true, false},
		// The integration bot that posted in #general.
		{6, "clickup-bot@example.org", "ClickUp", "America/New_York", "G", zulipdir.RoleMember, true, false, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("users (-want +got):\n%s", diff)
	}
	if st.Users != 6 {
		t.Errorf("stats: %d users", st.Users)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "realm.json"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(`"password"`)) {
		t.Error("realm.json gives users a password")
	}
	// Slack's phone and skype become custom profile fields (the fixture's are empty).
	var fields []string
	for _, f := range o.realm.CustomProfileField {
		fields = append(fields, f.Name)
	}
	if diff := cmp.Diff([]string{"phone", "skype"}, fields); diff != "" {
		t.Errorf("profile fields (-want +got):\n%s", diff)
	}
}

func TestConvertSlackChannels(t *testing.T) {
	t.Parallel()
	o, _, _ := convertWorkspace(t, Options{})
	type stream struct {
		Name, Description         string
		InviteOnly, HistoryPublic bool
		Deactivated               bool
	}
	var got []stream
	for _, s := range o.realm.Stream {
		got = append(got, stream{s.Name, s.Description, s.InviteOnly, s.HistoryPublicToSubscribers, s.Deactivated})
	}
	want := []stream{
		{"random", "A place for non-work-related flimflam, faffing, hodge-podge or jibber-jabber.", false, true, false},
		{"general", "Company-wide announcements", false, true, false},
		{"secret", "Plans", true, false, false},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("channels (-want +got):\n%s", diff)
	}
	var defaults []int64
	for _, d := range o.realm.DefaultStream {
		defaults = append(defaults, d.Stream)
	}
	if diff := cmp.Diff([]int64{1, 2}, defaults); diff != "" {
		t.Errorf("default channels (-want +got):\n%s", diff)
	}
	if a := o.realm.Realm[0].NewStreamAnnouncementsStream; a == nil || *a != 2 {
		t.Errorf("announcements channel %v, want #general (2)", a)
	}
	if len(o.realm.Huddle) != 1 || o.realm.Huddle[0].GroupSize != 3 {
		t.Errorf("huddles %+v, want one of 3", o.realm.Huddle)
	}
	subs := zulipdir.NewSubscriberMap(o.realm.Subscription)
	secret := recipientOf(t, o, zulipdir.RecipientStream, 3)
	if diff := cmp.Diff([]int64{1, 2}, subs[secret]); diff != "" {
		t.Errorf("#secret subscribers (-want +got):\n%s", diff)
	}
	general := recipientOf(t, o, zulipdir.RecipientStream, 2)
	if diff := cmp.Diff([]int64{1, 2, 3, 4, 5}, subs[general]); diff != "" {
		t.Errorf("#general subscribers (-want +got):\n%s", diff)
	}
	for _, u := range o.realm.UserProfile {
		if r := recipientOf(t, o, zulipdir.RecipientPersonal, u.ID); !slices.Equal(subs[r], []int64{u.ID}) {
			t.Errorf("personal recipient of %d has subscribers %v", u.ID, subs[r])
		}
	}
}

func recipientOf(t *testing.T, o output, typ int, typeID int64) int64 {
	t.Helper()
	for _, r := range o.realm.Recipient {
		if r.Type == typ && r.TypeID == typeID {
			return r.ID
		}
	}
	t.Fatalf("no recipient of type %d for %d", typ, typeID)
	return 0
}

func TestConvertSlackMessages(t *testing.T) {
	t.Parallel()
	o, _, st := convertWorkspace(t, Options{})
	random := recipientOf(t, o, zulipdir.RecipientStream, 1)
	general := recipientOf(t, o, zulipdir.RecipientStream, 2)
	secret := recipientOf(t, o, zulipdir.RecipientStream, 3)
	huddle := recipientOf(t, o, zulipdir.RecipientHuddle, 1)
	josef := recipientOf(t, o, zulipdir.RecipientPersonal, 1)
	steve := recipientOf(t, o, zulipdir.RecipientPersonal, 4)
	const thread = "2018-01-21 **Launch** plan for *Friday*"
	type msg struct {
		Content   string
		Sender    int64
		Recipient int64
		Topic     string
		HasLink   bool
	}
	tests := []msg{
		{"edfadfa", 1, random, defaultTopic, false},
		{"This is Steve typing random stuff.", 4, random, defaultTopic, false},
		{"@**Josef K.** uploaded a file: [dirac72.md](https://plan8team.slack.com/files/U6006P1CN/F8VSW87RR/dirac72.md) and commented: test upload attachment\n" +
			"[dirac72.md](https://plan8team.slack.com/files/U6006P1CN/F8VSW87RR/dirac72.md)", 1, random, defaultTopic, true},
		{"The markdown mapping is also lossy, as Zulip doesn't support two types of formatting together like bold and italic ~~***random***~~ while slack does", 2, random, defaultTopic, false},
		{"@**all**", 2, random, defaultTopic, false},
		{"Welcome @**Rhea Parekh**, see #**random** and [Zulip](https://zulip.com)", 4, general, defaultTopic, true},
		{"hello from a deleted account", 5, general, defaultTopic, false},
		{"## [dsdaddsa](https://app.clickup.com/t/86cv0v5my)\n\nAdded assignee Pieter\n\nby Pieter\n" +
			"*[Task one](https://app.clickup.com/25567147/v/s/43687023) &gt; [dsad](https://app.clickup.com/25567147/v/li/901601846060)*", 6, general, defaultTopic, true},
		{"/me waves", 4, general, defaultTopic, false},
		{"a shared doc\n[Plan](https://docs.google.com/document/d/abc)", 4, general, defaultTopic, true},
		{"**Launch** plan for *Friday*", 2, secret, thread, false},
		{"sounds good", 1, secret, thread, false},
		{"a late reply", 2, secret, thread, false},
		{"not in a thread", 2, secret, defaultTopic, false},
		{"group hello", 4, huddle, "", false},
		{"hi Josef", 4, josef, "", false},
		{"hi Steve", 1, steve, "", false},
	}
	for _, want := range tests {
		m := o.messageByContent(t, want.Content)
		got := msg{m.Content, m.Sender, m.Recipient, m.Topic, m.HasLink}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("message (-want +got):\n%s", diff)
		}
	}
	// Joins are skipped; the rest is there, in time order.
	if len(o.messages) != 21 || st.Messages != 21 || st.SkippedMessages != 4 {
		t.Errorf("%d messages (stats %d, skipped %d), want 21 and 4 skipped", len(o.messages), st.Messages, st.SkippedMessages)
	}
	if !slices.IsSortedFunc(o.messages, func(a, b zulipdir.Message) int { return int(a.ID - b.ID) }) ||
		!slices.IsSortedFunc(o.messages, func(a, b zulipdir.Message) int { return cmpFloat(a.DateSent, b.DateSent) }) {
		t.Error("messages are not in id and time order")
	}
	for _, m := range o.messages {
		if strings.Contains(m.Content, "xoxe-") {
			t.Errorf("message %d leaks a Slack file token: %q", m.ID, m.Content)
		}
		if m.RenderedContent != nil || m.SendingClient != zulipdir.ImportClientID || m.Type != zulipdir.MessageTypeNormal || m.Realm != 1 {
			t.Errorf("message %d: rendered %v, client %d, type %d, realm %d", m.ID, m.RenderedContent, m.SendingClient, m.Type, m.Realm)
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestConvertSlackUserMessagesAndReactions(t *testing.T) {
	t.Parallel()
	o, _, _ := convertWorkspace(t, Options{})
	flagsOf := func(content string) map[int64]int64 {
		id := o.messageByContent(t, content).ID
		out := map[int64]int64{}
		for _, um := range o.ums {
			if um.Message == id {
				out[um.UserProfile] = um.FlagsMask
			}
		}
		return out
	}
	const read, mentioned, private = zulipdir.FlagRead, zulipdir.FlagMentioned, zulipdir.FlagIsPrivate
	tests := []struct {
		content string
		want    map[int64]int64
	}{
		{"Welcome @**Rhea Parekh**, see #**random** and [Zulip](https://zulip.com)",
			map[int64]int64{1: read, 2: read | mentioned, 3: read, 4: read, 5: read}},
		{"**Launch** plan for *Friday*", map[int64]int64{1: read, 2: read}},
		{"group hello", map[int64]int64{1: read | private, 2: read | private, 4: read | private}},
		{"hi Josef", map[int64]int64{1: read | private, 4: read | private}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, flagsOf(tc.content)); diff != "" {
			t.Errorf("user messages of %q (-want +got):\n%s", tc.content, diff)
		}
	}
	welcome := o.messageByContent(t, tests[0].content).ID
	type reaction struct {
		User       int64
		Name, Code string
	}
	var got []reaction
	for _, r := range o.realm.Reaction {
		if r.Message != welcome || r.ReactionType != zulipdir.ReactionUnicode {
			t.Errorf("reaction %+v", r)
		}
		got = append(got, reaction{r.UserProfile, r.EmojiName, r.EmojiCode})
	}
	// +1 twice; clap::skin-tone-2 and -3 merge into one clap; Slack's smile is Zulip's
	// big_smile; the custom emoji is unknown to an export and skipped.
	want := []reaction{{1, "+1", "1f44d"}, {2, "+1", "1f44d"}, {1, "clap", "1f44f"}, {3, "big_smile", "1f604"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reactions (-want +got):\n%s", diff)
	}
}

// The thread topics of Zulip's test_convert_colliding_thread_topic_names and
// test_convert_thread_topic_name_with_long_name.
func TestConvertSlackThreadTopics(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		fixture string
		topics  map[string]string // content -> topic
	}{
		{"colliding names", "threads_with_colliding_topic_names", map[string]string{
			"message body text":                   "2015-06-12 message body text",
			"random":                              "2015-06-12 message body text",
			"The first reply to the third thread": "2015-06-12 message body text (2)",
		}},
		{"line breaks", "", map[string]string{
			"Look!\n*there*": "2015-06-12 Look! *there*",
			"spaced   out":   "2015-06-12 spaced out", // the body is trimmed, the topic collapsed
		}},
		{"long name", "thread_with_long_topic_name", map[string]string{
			"random message but it is too long for the thread topic name": "2015-08-18 random message but it is too long for the thread…",
			"replying to the second thread :)":                            "2015-08-18 random message but it is too long for the thread…",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			msgs := []byte(`[{"text":"Look!\n_there_","user":"U061A5N1G","ts":"1434139102.000002","thread_ts":"1434139102.000002"},
				{"text":"   spaced   out","user":"U061A5N1G","ts":"1434139103.000002","thread_ts":"1434139103.000002"}]`)
			if tc.fixture != "" {
				var err error
				if msgs, err = os.ReadFile("testdata/exported_messages/" + tc.fixture + ".json"); err != nil {
					t.Fatal(err)
				}
			}
			users, err := os.ReadFile("testdata/exported_messages/users.json")
			if err != nil {
				t.Fatal(err)
			}
			zp := mustZipDir(t, "", map[string]string{
				"users.json":             string(users),
				"channels.json":          `[{"id":"c5","name":"random","created":1,"members":["U061A5N1G","U061A1R2R"],"purpose":{"value":""}}]`,
				"random/2015-06-12.json": string(msgs),
			})
			out := filepath.Join(t.TempDir(), "out")
			if _, err := ConvertSlack(t.Context(), zp, out, Options{}); err != nil {
				t.Fatal(err)
			}
			o := mustReadOutput(t, out)
			got := map[string]string{}
			for _, m := range o.messages {
				if _, ok := got[m.Content]; !ok {
					got[m.Content] = m.Topic
				}
			}
			if diff := cmp.Diff(tc.topics, got); diff != "" {
				t.Errorf("topics (-want +got):\n%s", diff)
			}
			for _, m := range o.messages {
				if n := len([]rune(m.Topic)); n > zulipdir.MaxTopicLength {
					t.Errorf("topic %q has %d characters", m.Topic, n)
				}
			}
			// One topic for all when threads are not converted.
			out2 := filepath.Join(t.TempDir(), "out")
			if _, err := ConvertSlack(t.Context(), zp, out2, Options{SingleTopic: true}); err != nil {
				t.Fatal(err)
			}
			for _, m := range mustReadOutput(t, out2).messages {
				if m.Topic != defaultTopic {
					t.Errorf("SingleTopic: message %q in topic %q", m.Content, m.Topic)
				}
			}
		})
	}
}

func TestConvertSlackDownloadsFilesAndAvatars(t *testing.T) {
	t.Parallel()
	var fetched []string
	fetch := func(_ context.Context, url string) (io.ReadCloser, error) {
		fetched = append(fetched, url)
		return io.NopCloser(strings.NewReader("bytes of " + url)), nil
	}
	emoji := map[string]string{
		"custom-party": "https://emoji.slack-edge.com/T5YFFM2QY/custom-party/1234.png",
		"party-alias":  "alias:custom-party",
		"elsewhere":    "https://example.com/x.png",
	}
	o, dir, st := convertWorkspace(t, Options{Fetch: fetch, CustomEmoji: emoji})
	// The custom emoji on Slack's emoji host, and the reaction with it.
	if len(o.realm.RealmEmoji) != 1 || o.realm.RealmEmoji[0].Name != "custom-party" || o.realm.RealmEmoji[0].FileName != "1.png" {
		t.Errorf("realm emoji %+v", o.realm.RealmEmoji)
	}
	var records []zulipdir.EmojiRecord
	mustReadJSON(t, filepath.Join(dir, "emoji", "records.json"), &records)
	if len(records) != 1 || records[0].Path != "1/emoji/images/1.png" {
		t.Errorf("emoji records %+v", records)
	} else if b, err := os.ReadFile(filepath.Join(dir, "emoji", "1", "emoji", "images", "1.png")); err != nil || !strings.HasPrefix(string(b), "bytes of https://emoji.slack-edge.com/") {
		t.Errorf("emoji image %q, %v", b, err)
	}
	custom := 0
	for _, r := range o.realm.Reaction {
		if r.ReactionType == zulipdir.ReactionRealm {
			custom++
			if r.EmojiName != "custom-party" || r.EmojiCode != "1" || r.UserProfile != 3 {
				t.Errorf("custom reaction %+v", r)
			}
		}
	}
	if custom != 1 {
		t.Errorf("%d custom emoji reactions, want 1", custom)
	}
	if len(o.attachments) != 1 || len(o.uploads) != 1 || st.Attachments != 1 {
		t.Fatalf("attachments %+v, uploads %+v", o.attachments, o.uploads)
	}
	a, u := o.attachments[0], o.uploads[0]
	if a.FileName != "dirac72.md" || a.Owner != 1 || a.Size != 5755 || !strings.HasPrefix(a.PathID, "1/") ||
		!strings.HasSuffix(a.PathID, "/dirac72.md") || u.Path != a.PathID || u.UserProfileEmail != "u6006p1cn@imported.example.com" {
		t.Errorf("attachment %+v, upload %+v", a, u)
	}
	data, err := os.ReadFile(filepath.Join(dir, "uploads", filepath.FromSlash(a.PathID)))
	if err != nil || !strings.HasPrefix(string(data), "bytes of https://files.slack.com/") {
		t.Errorf("uploaded file: %q, %v", data, err)
	}
	m := o.messageByContent(t, "@**Josef K.** uploaded a file: [dirac72.md](https://plan8team.slack.com/files/U6006P1CN/F8VSW87RR/dirac72.md) and commented: test upload attachment\n"+
		"[dirac72.md](/user_uploads/"+a.PathID+")")
	if !m.HasAttachment || !m.HasLink || m.HasImage || !slices.Equal(a.Messages, []int64{m.ID}) {
		t.Errorf("message %+v, attachment messages %v", m, a.Messages)
	}
	// The four users with an avatar hash: an image and an original each.
	if len(o.avatars) != 8 {
		t.Fatalf("%d avatar records, want 8", len(o.avatars))
	}
	for _, r := range o.avatars {
		if _, err := os.Stat(filepath.Join(dir, "avatars", filepath.FromSlash(r.Path))); err != nil {
			t.Errorf("avatar record %+v: %v", r, err)
		}
	}
	if !slices.Contains(fetched, "https://ca.slack-edge.com/T5YFFM2QY-U6006P1CN-gd41c3c33cbe-512") {
		t.Errorf("fetched %v", fetched)
	}
	if u := o.userByEmail(t, "u6006p1cn@imported.example.com"); u.AvatarSource != zulipdir.AvatarUploaded {
		t.Errorf("avatar source %q", u.AvatarSource)
	}
}

func TestConvertSlackRejects(t *testing.T) {
	t.Parallel()
	valid := map[string]string{"users.json": "[]", "channels.json": "[]"}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range valid {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name    string
		entries map[string]string
		limits  Limits
		want    error
	}{
		{"entry climbing out", with(map[string]string{"../evil.json": "[]"}), Limits{}, ErrInvalidExport},
		{"absolute entry", with(map[string]string{"/etc/evil.json": "[]"}), Limits{}, ErrInvalidExport},
		{"dot directory", with(map[string]string{"./random/2020-01-01.json": "[]"}), Limits{}, ErrInvalidExport},
		{"backslash", with(map[string]string{`..\evil.json`: "[]"}), Limits{}, ErrInvalidExport},
		{"entry too large", with(map[string]string{"groups.json": "[" + strings.Repeat(" ", 200) + "]"}), Limits{MaxEntrySize: 100}, ErrInvalidExport},
		{"too many entries", valid, Limits{MaxEntries: 1}, ErrInvalidExport},
		{"total too large", valid, Limits{MaxTotalSize: 3}, ErrInvalidExport},
		{"no channels.json", map[string]string{"users.json": "[]"}, Limits{}, ErrInvalidExport},
		{"no users.json", map[string]string{"channels.json": "[]"}, Limits{}, ErrInvalidExport},
		{"broken day file", with(map[string]string{
			"channels.json":          `[{"id":"C1","name":"random","members":[]}]`,
			"random/2020-01-01.json": "[{",
		}), Limits{}, ErrInvalidExport},
		{"channel named twice", with(map[string]string{"channels.json": `[{"id":"C1","name":"a"},{"id":"C2","name":"a"}]`}), Limits{}, ErrInvalidExport},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			zp := mustZipDir(t, "", tc.entries)
			out := filepath.Join(t.TempDir(), "out")
			_, err := ConvertSlack(t.Context(), zp, out, Options{Limits: tc.limits})
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
		})
	}
	t.Run("not a zip", func(t *testing.T) {
		t.Parallel()
		p := filepath.Join(t.TempDir(), "x.zip")
		if err := os.WriteFile(p, []byte("not a zip"), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := ConvertSlack(t.Context(), p, t.TempDir(), Options{}); !errors.Is(err, ErrInvalidExport) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("output not empty", func(t *testing.T) {
		t.Parallel()
		out := t.TempDir()
		if err := os.WriteFile(filepath.Join(out, "x"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := ConvertSlack(t.Context(), mustZipDir(t, "", valid), out, Options{}); !errors.Is(err, zulipdir.ErrNotEmpty) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("download too large", func(t *testing.T) {
		t.Parallel()
		fetch := func(context.Context, string) (io.ReadCloser, error) {
			return io.NopCloser(strings.NewReader(strings.Repeat("x", 100))), nil
		}
		zp := mustZipDir(t, "testdata/workspace", nil)
		_, err := ConvertSlack(t.Context(), zp, filepath.Join(t.TempDir(), "out"), Options{Fetch: fetch, Limits: Limits{MaxFileSize: 10}})
		if err == nil || !strings.Contains(err.Error(), "larger than 10 bytes") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		zp := mustZipDir(t, "testdata/workspace", nil)
		if _, err := ConvertSlack(ctx, zp, filepath.Join(t.TempDir(), "out"), Options{}); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v", err)
		}
	})
}

// Slack writes UTF-8 names without the zip's UTF-8 flag (Zulip re-decodes them from cp437);
// the names are read as the bytes they are.
func TestConvertSlackUnicodeNames(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "export.zip")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	entries := []struct{ name, body string }{
		{"users.json", `[{"id":"U1","name":"hana","deleted":false,"real_name":"花子","profile":{"email":"hana@example.com"}}]`},
		{"channels.json", `[{"id":"C1","name":"日本語","created":1,"members":["U1"],"purpose":{"value":"話す"}}]`},
		{"日本語/2020-01-01.json", `[{"type":"message","user":"U1","text":"こんにちは <#C1|日本語>","ts":"1577836800.000100"}]`},
	}
	for _, e := range entries {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, NonUTF8: true, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e.body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	if _, err := ConvertSlack(t.Context(), path, out, Options{}); err != nil {
		t.Fatal(err)
	}
	o := mustReadOutput(t, out)
	if len(o.realm.Stream) != 1 || o.realm.Stream[0].Name != "日本語" || o.realm.UserProfile[0].FullName != "花子" {
		t.Errorf("streams %+v, users %+v", o.realm.Stream, o.realm.UserProfile)
	}
	if m := o.messageByContent(t, "こんにちは #**日本語**"); m.Topic != defaultTopic {
		t.Errorf("message %+v", m)
	}
}

// An unzipped export converts as its zip does; a symbolic link in it is not followed.
func TestConvertSlackDir(t *testing.T) {
	t.Parallel()
	fromZip, _, _ := convertWorkspace(t, Options{})
	out := filepath.Join(t.TempDir(), "out")
	st, err := ConvertSlackDir(t.Context(), "testdata/workspace", out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fromDir := mustReadOutput(t, out)
	if st.Messages != 21 || len(fromDir.messages) != len(fromZip.messages) {
		t.Fatalf("%d messages from the directory, %d from the zip", len(fromDir.messages), len(fromZip.messages))
	}
	for i := range fromDir.messages {
		a, b := fromDir.messages[i], fromZip.messages[i]
		if a.Content != b.Content || a.Topic != b.Topic || a.Recipient != b.Recipient || a.Sender != b.Sender {
			t.Errorf("message %d: %+v from the directory, %+v from the zip", i, a, b)
		}
	}

	base := t.TempDir()
	outside := filepath.Join(base, "outside.json")
	if err := os.WriteFile(outside, []byte(`[{"id":"C1","name":"leak","members":[]}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	exp := filepath.Join(base, "export")
	if err := os.MkdirAll(exp, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(exp, "users.json"), []byte("[]"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(exp, "channels.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := ConvertSlackDir(t.Context(), exp, filepath.Join(t.TempDir(), "out"), Options{}); !errors.Is(err, ErrInvalidExport) {
		t.Errorf("a linked channels.json: err = %v, want ErrInvalidExport", err)
	}
}

// Times that are no times (NaN, infinities, negative, missing) neither break the JSON
// written nor reach it: such messages are skipped, such channel dates left at zero.
func TestConvertSlackBadTimes(t *testing.T) {
	t.Parallel()
	zp := mustZipDir(t, "", map[string]string{
		"users.json":    `[{"id":"U1","name":"a","deleted":false,"real_name":"A","profile":{"email":"a@example.com"}}]`,
		"channels.json": `[{"id":"C1","name":"random","created":"NaN","members":["U1"],"purpose":{"value":""}}]`,
		"random/2020-01-01.json": `[{"user":"U1","text":"nan","ts":"NaN"},{"user":"U1","text":"inf","ts":"1e400"},` +
			`{"user":"U1","text":"negative","ts":"-5"},{"user":"U1","text":"none"},` +
			`{"user":"U1","text":"bad thread","ts":"1577836800.000100","thread_ts":"Inf","attachments":[{"text":"x","ts":"NaN"}]},` +
			`{"user":"U1","text":"fine","ts":"1577836801.000100"}]`,
	})
	out := filepath.Join(t.TempDir(), "out")
	if _, err := ConvertSlack(t.Context(), zp, out, Options{}); err != nil {
		t.Fatal(err)
	}
	o := mustReadOutput(t, out)
	var got []string
	for _, m := range o.messages {
		got = append(got, m.Content)
	}
	if diff := cmp.Diff([]string{"bad thread\nx", "fine"}, got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if o.messages[0].Topic != defaultTopic {
		t.Errorf("a thread without a time: topic %q", o.messages[0].Topic)
	}
	if o.realm.Stream[0].DateCreated != 0 {
		t.Errorf("channel created %v", o.realm.Stream[0].DateCreated)
	}
}
