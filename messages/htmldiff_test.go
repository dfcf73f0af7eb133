package messages

import "testing"

func TestHighlightHTMLDifferences(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, old, new, want string
	}{
		{"same", "<p>hello world</p>", "<p>hello world</p>", "<div><p>hello world</p></div>"},
		{"word replaced", "<p>hello world</p>", "<p>hello there</p>",
			`<div><p>hello <span class="highlight_text_inserted">there</span><span class="highlight_text_deleted">world</span></p></div>`},
		{"words appended", "<p>a b</p>", "<p>a b c d</p>",
			`<div><p>a b <span class="highlight_text_inserted">c d</span></p></div>`},
		{"word deleted", "<p>a b c</p>", "<p>a c</p>",
			`<div><p>a <span class="highlight_text_deleted">b</span> c</p></div>`},
		{"paragraph added", "<p>a</p>", "<p>a</p>\n<p>b</p>",
			`<div><p>a</p>` + "\n" + `<p><span class="highlight_text_inserted">b</span></p></div>`},
		{"deleted tags dropped", "<p>a <strong>b</strong></p>", "<p>a</p>",
			`<div><p>a<span class="highlight_text_deleted">b</span></p></div>`},
	}
	for _, tt := range tests {
		if got := HighlightHTMLDifferences(tt.old, tt.new); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

func TestHighlightHTMLDifferencesLarge(t *testing.T) {
	t.Parallel()
	var a, b []byte
	for i := range 3000 {
		a = append(a, []byte("x"+string(rune('a'+i%26))+" ")...)
		b = append(b, []byte("y"+string(rune('a'+i%26))+" ")...)
	}
	got := HighlightHTMLDifferences(string(a), string(b))
	if len(got) < len(a)+len(b) {
		t.Errorf("the diff of large versions is %d bytes, want both versions in it", len(got))
	}
}
