package messages_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/messages"
)

func TestSearchStems(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want []string }{
		{[]string{"Running runners ran"}, []string{"run", "runner", "ran"}},
		{[]string{"don't STOP-believing"}, []string{"don", "t", "stop", "believ"}},
		{[]string{"café 2024 naïve"}, []string{"café", "2024", "naïv"}},
		{[]string{"日本語 text"}, []string{"日本語", "text"}},
		{[]string{"?!  ..."}, nil},
	} {
		if diff := cmp.Diff(tt.want, messages.SearchStems(tt.in[0])); diff != "" {
			t.Errorf("SearchStems(%q) (-want +got):\n%s", tt.in[0], diff)
		}
	}
}

func TestHTMLText(t *testing.T) {
	t.Parallel()
	got := messages.HTMLText(`<p>fish&amp;chips <a href="https://x.example/cake">link</a>&lt;b&gt;</p>`)
	want := " fish&chips  link <b> "
	if got != want {
		t.Errorf("HTMLText = %q, want %q", got, want)
	}
}

func TestSearchMatches(t *testing.T) {
	t.Parallel()
	doc := messages.NewSearchDoc("Lunch plans", `<p>The <strong>quick</strong> brown foxes jumped</p>`)
	for _, tt := range []struct {
		q    string
		want bool
	}{
		{"fox", true},
		{"FOXES lunch", true},
		{"jumping", true},
		{"fox dog", false},
		{`"quick brown"`, true},
		{`"brown quick"`, false},
		{`"plans the"`, false}, // a phrase never spans the topic and the content
		{`"lunch plan"`, true},
		{`"fox"`, true},
		{"...", false},
		{"strong", false}, // tags are not words
	} {
		if got := messages.ParseSearch(tt.q).Matches(doc); got != tt.want {
			t.Errorf("%q matches = %v, want %v", tt.q, got, tt.want)
		}
	}
}

func TestSearchHighlight(t *testing.T) {
	t.Parallel()
	s := messages.ParseSearch(`cakes "a&b"`)
	for _, tt := range []struct{ in, want string }{
		{`<p>Cake &amp; more <a href="/cake">cakes</a></p>`, `<p><span class="highlight">Cake</span> &amp; more <a href="/cake"><span class="highlight">cakes</span></a></p>`},
		{`a&amp;b`, `<span class="highlight">a</span>&amp;<span class="highlight">b</span>`},
		{`no match`, `no match`},
	} {
		if got := s.Highlight(tt.in); got != tt.want {
			t.Errorf("Highlight(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := s.HighlightTopic("cake <3"); got != `<span class="highlight">cake</span> &lt;3` {
		t.Errorf("HighlightTopic = %q", got)
	}
}

func TestHasOperands(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		rendered                string
		link, attachment, image bool
	}{
		{`<p>plain</p>`, false, false, false},
		{`<p><a href="https://example.com">x</a></p>`, true, false, false},
		{`<p><a href="/user_uploads/2/ab/f.pdf">f.pdf</a></p>`, true, true, false},
		{`<p><img src="/user_uploads/2/ab/c.png" alt="c"></p>`, false, true, true},
		{`<p><img class="emoji" src="/static/e.png"></p>`, false, false, false},
		{`<div class="message_inline_image"><a href="https://i.example/x.png"><img src="https://i.example/x.png"></a></div>`, true, false, true},
		{`<p>/user_uploads/ in text</p>`, false, false, false},
	} {
		if got := messages.HasLinkIn(tt.rendered); got != tt.link {
			t.Errorf("HasLinkIn(%q) = %v", tt.rendered, got)
		}
		if got := messages.HasAttachmentIn(tt.rendered); got != tt.attachment {
			t.Errorf("HasAttachmentIn(%q) = %v", tt.rendered, got)
		}
		if got := messages.HasImageIn(tt.rendered); got != tt.image {
			t.Errorf("HasImageIn(%q) = %v", tt.rendered, got)
		}
	}
}

func FuzzParseSearch(f *testing.F) {
	for _, s := range []string{`"a b" c`, `"`, `""`, "日本 \"x", "a&amp;b<"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		s := messages.ParseSearch(q)
		if len(s.Words) > messages.MaxSearchWords {
			t.Fatalf("%d words", len(s.Words))
		}
		doc := messages.NewSearchDoc(q, q)
		_ = s.Matches(doc)
		_ = s.Highlight(q)
	})
}

func ExampleParseSearch() {
	s := messages.ParseSearch(`"brown foxes" jumping`)
	fmt.Println(s.Words, s.Phrases)
	doc := messages.NewSearchDoc("animals", "<p>The quick brown fox jumps</p>")
	fmt.Println(s.Matches(doc))
	fmt.Println(s.Highlight("<p>The quick brown fox jumps</p>"))
	// Output:
	// [brown fox jump] [[brown fox]]
	// true
	// <p>The quick <span class="highlight">brown</span> <span class="highlight">fox</span> <span class="highlight">jumps</span></p>
}
