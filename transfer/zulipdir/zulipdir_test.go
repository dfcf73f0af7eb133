package zulipdir

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSafeRel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"a/b.png", "a/b.png", true},
		{"a/./b/../c", "a/c", true},
		{"1/emoji/images/tick", "1/emoji/images/tick", true},
		{"", "", false},
		{".", "", false},
		{"..", "", false},
		{"../x", "", false},
		{"a/../../x", "", false},
		{"/etc/passwd", "", false},
		{`..\x`, "", false},
		{"a\x00b", "", false},
	}
	for _, tc := range tests {
		got, err := SafeRel(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("SafeRel(%q) = %q, %v; want %q, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrUnsafePath) {
			t.Errorf("SafeRel(%q) error %v is not ErrUnsafePath", tc.in, err)
		}
	}
}

func TestSanitizeName(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"dirac72.md", "dirac72.md"},
		{"this is a file", "this-is-a-file"},
		{"harry-ron.jpg", "harry-ron.jpg"},
		{"a  -- b.txt", "a-b.txt"},
		{"../../etc/passwd", "....etcpasswd"},
		{"ｆｕｌｌｗｉｄｔｈ.png", "fullwidth.png"},
		{"Привет мир.txt", "Привет-мир.txt"},
		{"$%^&", "uploaded-file"},
		{"..", "uploaded-file"},
		{"", "uploaded-file"},
	}
	for _, tc := range tests {
		if got := SanitizeName(tc.in); got != tc.want {
			t.Errorf("SanitizeName(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if _, err := SafeRel(SanitizeName(tc.in)); err != nil {
			t.Errorf("SanitizeName(%q) is not a safe path: %v", tc.in, err)
		}
	}
}

func TestTruncate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     string
		max    int
		suffix string
		want   string
	}{
		{"short", 10, "…", "short"},
		{"exactly ten", 11, "…", "exactly ten"},
		{"2015-08-18 random message but it is too long for the thread topic name", 60, "…",
			"2015-08-18 random message but it is too long for the thread…"},
		{"汉语汉语汉语", 4, "…", "汉语汉…"},
		{"abc", 1, "...", "."},
	}
	for _, tc := range tests {
		if got := Truncate(tc.in, tc.max, tc.suffix); got != tc.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
	for _, tc := range []struct{ in, fallback, want string }{
		{"  Josef   K. ", "U1", "Josef K."},
		{"line\nbreak", "U1", "line break"},
		{" ", "U1", "U1"},
		{strings.Repeat("n", 150), "U1", strings.Repeat("n", 100)},
	} {
		if got := FullName(tc.in, tc.fallback); got != tc.want {
			t.Errorf("FullName(%q, %q) = %q, want %q", tc.in, tc.fallback, got, tc.want)
		}
	}
	if got := NormalizeBody("a\x00b"); got != "ab" {
		t.Errorf("NormalizeBody removes NUL: %q", got)
	}
	long := NormalizeBody(strings.Repeat("x", MaxMessageLength+5))
	if n := len([]rune(long)); n != MaxMessageLength || !strings.HasSuffix(long, "\n[message truncated]") {
		t.Errorf("NormalizeBody of a long body: %d characters, ends %q", n, long[len(long)-20:])
	}
}

func TestUserMessages(t *testing.T) {
	t.Parallel()
	var seq Seq
	got := UserMessages(&seq, 7, []int64{3, 1, 3, 2}, []int64{2}, false, true)
	want := []UserMessage{
		{ID: 1, UserProfile: 1, Message: 7, FlagsMask: FlagRead | FlagIsPrivate},
		{ID: 2, UserProfile: 2, Message: 7, FlagsMask: FlagRead | FlagMentioned | FlagIsPrivate},
		{ID: 3, UserProfile: 3, Message: 7, FlagsMask: FlagRead | FlagIsPrivate},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("user messages (-want +got):\n%s", diff)
	}
	got = UserMessages(&seq, 8, []int64{1}, nil, true, false)
	if diff := cmp.Diff([]UserMessage{{ID: 4, UserProfile: 1, Message: 8, FlagsMask: FlagRead | FlagWildcardMention}}, got); diff != "" {
		t.Errorf("wildcard user message (-want +got):\n%s", diff)
	}
}

func TestUploadPathID(t *testing.T) {
	t.Parallel()
	a, err := UploadPathID(3, "my file.png")
	if err != nil {
		t.Fatal(err)
	}
	b, err := UploadPathID(3, "my file.png")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`^3/[0-9a-f]{1,2}/[A-Za-z0-9_-]{24}/my-file\.png$`)
	if !re.MatchString(a) || !re.MatchString(b) || a == b {
		t.Errorf("path ids %q and %q", a, b)
	}
}

func TestWriter(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	w, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRealm(RealmRow{ID: 1, Name: "x", StringID: "x"}, "example.com", "slack")
	if err := w.WriteRealm(r); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := w.WriteMessages([]Message{{ID: int64(i + 1)}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.WriteUploadRecords(nil); err != nil {
		t.Fatal(err)
	}
	var realm map[string]json.RawMessage
	data, err := os.ReadFile(filepath.Join(dir, "realm.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &realm); err != nil {
		t.Fatal(err)
	}
	for name, v := range realm {
		if string(v) == "null" {
			t.Errorf("realm.json: %s is null", name)
		}
	}
	for _, table := range []string{"zerver_realm", "zerver_userprofile", "zerver_stream", "zerver_recipient", "zerver_subscription", "zerver_huddle", "zerver_client", "zerver_realmauthenticationmethod"} {
		if _, ok := realm[table]; !ok {
			t.Errorf("realm.json lacks %s", table)
		}
	}
	for _, f := range []string{"messages-000001.json", "messages-000002.json", "uploads/records.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	var m struct {
		UserMessage []UserMessage `json:"zerver_usermessage"`
	}
	data, err = os.ReadFile(filepath.Join(dir, "messages-000002.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil || m.UserMessage == nil {
		t.Errorf("messages-000002.json: %s, %v", data, err)
	}

	// Files: bounded, inside their area, never overwritten.
	n, err := w.CopyFile("uploads", "1/ab/tok/a.txt", strings.NewReader("hello"), 5)
	if err != nil || n != 5 {
		t.Errorf("CopyFile = %d, %v", n, err)
	}
	if _, err := w.CopyFile("uploads", "1/ab/tok/a.txt", strings.NewReader("again"), 5); err == nil {
		t.Error("CopyFile overwrote a file")
	}
	if _, err := w.CopyFile("uploads", "big.txt", strings.NewReader("123456"), 5); err == nil {
		t.Error("CopyFile wrote past its limit")
	}
	if _, err := os.Stat(filepath.Join(dir, "uploads", "big.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file past the limit is left: %v", err)
	}
	for _, bad := range []struct{ area, rel string }{{"uploads", "../realm.json"}, {"uploads", "/abs"}, {"..", "x"}, {"messages", "x"}} {
		if _, err := w.CreateFile(bad.area, bad.rel); !errors.Is(err, ErrUnsafePath) {
			t.Errorf("CreateFile(%q, %q) = %v, want ErrUnsafePath", bad.area, bad.rel, err)
		}
	}

	// A directory in use is refused.
	if _, err := Create(dir); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("Create of a used directory: %v", err)
	}
}
