package uploads_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/uploads"
)

func TestSanitizeName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"zulip.txt":              "zulip.txt",
		"notes for  Q3 .txt":     "notes-for-Q3-.txt",
		"../../etc/passwd":       "....etcpasswd",
		"..":                     "uploaded-file",
		"":                       "uploaded-file",
		"<script>x</script>.htm": "scriptxscript.htm",
		"ﬁle.txt":                "file.txt", // NFKC
		"naïve résumé.pdf":       "naïve-résumé.pdf",
		"a - b_c.tar.gz":         "a-b_c.tar.gz",
	} {
		if got := uploads.SanitizeName(in); got != want {
			t.Errorf("SanitizeName(%q) = %q, want %q", in, got, want)
		}
	}
	long := uploads.SanitizeName(strings.Repeat("é", 300) + ".txt")
	if len(long) > uploads.MaxNameLength || !strings.HasSuffix(long, ".txt") || !utf8.ValidString(long) {
		t.Errorf("long name: %d bytes %q", len(long), long[len(long)-10:])
	}
}

func TestLinkedPathIDs(t *testing.T) {
	t.Parallel()
	content := "see [a](/user_uploads/2/ab/tok/a.txt) and https://chat.example.com/user_uploads/2/c/t2/b%20c.pdf, " +
		"again /user_uploads/2/ab/tok/a.txt; a thumbnail /user_uploads/thumbnail/2/ab/tok/a.png/840x560.jpg " +
		"and a temporary /user_uploads/temporary/xyz/a.txt and a short /user_uploads/2/x"
	want := []string{"2/ab/tok/a.txt", "2/c/t2/b c.pdf"}
	if diff := cmp.Diff(want, uploads.LinkedPathIDs(content)); diff != "" {
		t.Errorf("LinkedPathIDs (-want +got):\n%s", diff)
	}
	if uploads.MayLink("nothing here") || !uploads.MayLink(content) {
		t.Error("MayLink")
	}
}

func TestValidPathIDAndURL(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]bool{
		"2/ab/tok/a.txt": true, "3/ab/tok/a.txt": false, "2/ab/tok": false, "2/../tok/a": false, "2/ab//a": false, "2/ab/tok/a/b": false,
	} {
		if got := uploads.ValidPathID(p); got != want {
			t.Errorf("ValidPathID(%q) = %v", p, got)
		}
	}
	if got := uploads.URL("2/ab/tok/a b#c.txt"); got != "/user_uploads/2/ab/tok/a%20b%23c.txt" {
		t.Errorf("URL = %q", got)
	}
}

func TestContentType(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ declared, name, want string }{
		{"image/png", "x.png", "image/png"},
		{"application/octet-stream", "x.pdf", "application/pdf"},
		{"", "x.unknownext", "application/octet-stream"},
		{"text/plain; charset=utf-8", "x", "text/plain; charset=utf-8"},
		{"not a type", "x.txt", "text/plain; charset=utf-8"},
	} {
		if got := uploads.ContentType(c.declared, c.name); got != c.want {
			t.Errorf("ContentType(%q, %q) = %q, want %q", c.declared, c.name, got, c.want)
		}
	}
	if uploads.ServedInline("text/html") || !uploads.ServedInline("image/png") || uploads.ServedInline("image/svg+xml") {
		t.Error("ServedInline")
	}
}

// FuzzLinkedPathIDs: whatever a message holds, the path ids found are valid path-shaped
// strings that the content mentions.
func FuzzLinkedPathIDs(f *testing.F) {
	f.Add("[a](/user_uploads/2/ab/tok/a.txt)")
	f.Add("/user_uploads/2/%zz/x/y /user_uploads/2/a/b/c%2Fd")
	f.Fuzz(func(t *testing.T, content string) {
		for _, p := range uploads.LinkedPathIDs(content) {
			if strings.Count(p, "/") < 3 || !uploads.MayLink(content) {
				t.Fatalf("%q from %q", p, content)
			}
		}
		name := uploads.SanitizeName(content)
		if name == "" || strings.ContainsAny(name, "/\\") || len(name) > uploads.MaxNameLength || !utf8.ValidString(name) {
			t.Fatalf("SanitizeName(%q) = %q", content, name)
		}
	})
}
