package markdown

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testResolver knows Ada (1), the inactive Bob (2), "<b>&Co" (3), the group "hamlet" (7), the
// deactivated group "old" (8) and the channels "engines" (4) and "a.b c" (5).
func testResolver() *Resolver {
	people := []MentionedUser{{ID: 1, FullName: "Ada Lovelace", Active: true}, {ID: 2, FullName: "Bob", Active: false},
		{ID: 3, FullName: "<b>&Co", Active: true}}
	return &Resolver{
		UserByID: func(id int64) (MentionedUser, bool) {
			for _, u := range people {
				if u.ID == id {
					return u, true
				}
			}
			return MentionedUser{}, false
		},
		UserByName: func(name string) (MentionedUser, bool) {
			for _, u := range people {
				if strings.EqualFold(u.FullName, name) {
					return u, true
				}
			}
			return MentionedUser{}, false
		},
		Group: func(name string) (MentionedGroup, bool) {
			switch name {
			case "hamlet":
				return MentionedGroup{ID: 7, Name: "hamlet"}, true
			case "old":
				return MentionedGroup{ID: 8, Name: "old", Deactivated: true}, true
			}
			return MentionedGroup{}, false
		},
		Channel: func(name string) (int64, bool) {
			switch name {
			case "engines":
				return 4, true
			case "a.b c":
				return 5, true
			}
			return 0, false
		},
	}
}

func TestRenderMentions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, want string
		mentions        Mentions
	}{
		{"by name", "hi @**Ada Lovelace**", `<p>hi <span class="user-mention" data-user-id="1">@Ada Lovelace</span></p>`, Mentions{UserIDs: []int64{1}}},
		{"name case", "@**ada lovelace**", `<p><span class="user-mention" data-user-id="1">@Ada Lovelace</span></p>`, Mentions{UserIDs: []int64{1}}},
		{"by name and id", "@**Ada Lovelace|1**", `<p><span class="user-mention" data-user-id="1">@Ada Lovelace</span></p>`, Mentions{UserIDs: []int64{1}}},
		{"by id", "@**|1**", `<p><span class="user-mention" data-user-id="1">@Ada Lovelace</span></p>`, Mentions{UserIDs: []int64{1}}},
		{"name and id differ", "@**Bob|1**", `<p>@<strong>Bob|1</strong></p>`, Mentions{}},
		{"unknown id", "@**Ada Lovelace|9**", `<p>@<strong>Ada Lovelace|9</strong></p>`, Mentions{}},
		{"unknown", "@**Unknown**", `<p>@<strong>Unknown</strong></p>`, Mentions{}},
		{"silent", "@_**Ada Lovelace|1**", `<p><span class="user-mention silent" data-user-id="1">Ada Lovelace</span></p>`, Mentions{}},
		{"inactive is silent", "@**Bob**", `<p><span class="user-mention silent" data-user-id="2">Bob</span></p>`, Mentions{}},
		{"twice", "@**Ada Lovelace** @**|1**", `<p><span class="user-mention" data-user-id="1">@Ada Lovelace</span> <span class="user-mention" data-user-id="1">@Ada Lovelace</span></p>`, Mentions{UserIDs: []int64{1}}},
		{"html in name", "@**<b>&Co**", `<p><span class="user-mention" data-user-id="3">@&lt;b&gt;&amp;Co</span></p>`, Mentions{UserIDs: []int64{3}}},
		{"stream wildcard", "@**all**", `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span></p>`, Mentions{StreamWildcard: true}},
		{"channel wildcard", "@**channel**", `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@channel</span></p>`, Mentions{StreamWildcard: true}},
		{"silent wildcard", "@_**everyone**", `<p><span class="user-mention channel-wildcard-mention silent" data-user-id="*">everyone</span></p>`, Mentions{}},
		{"topic wildcard", "@**topic**", `<p><span class="topic-mention">@topic</span></p>`, Mentions{TopicWildcard: true}},
		{"wildcard is case sensitive", "@**ALL**", `<p>@<strong>ALL</strong></p>`, Mentions{}},
		{"group", "@*hamlet*", `<p><span class="user-group-mention" data-user-group-id="7">@hamlet</span></p>`, Mentions{GroupIDs: []int64{7}}},
		{"silent group", "@_*hamlet*", `<p><span class="user-group-mention silent" data-user-group-id="7">hamlet</span></p>`, Mentions{}},
		{"deactivated group", "@*old*", `<p><span class="user-group-mention silent" data-user-group-id="8">old</span></p>`, Mentions{}},
		{"unknown group", "@*nobody*", `<p>@<em>nobody</em></p>`, Mentions{}},
		{"code span", "`@**Ada Lovelace**` and `#**engines**`", `<p><code>@**Ada Lovelace**</code> and <code>#**engines**</code></p>`, Mentions{}},
		{"code block", "```\n@**Ada Lovelace**\n```", "<pre><code>@**Ada Lovelace**\n</code></pre>", Mentions{}},
		{"not after a word", "ada@**Ada Lovelace**", `<p>ada@<strong>Ada Lovelace</strong></p>`, Mentions{}},
		{"after a parenthesis", "(@**Ada Lovelace**)", `<p>(<span class="user-mention" data-user-id="1">@Ada Lovelace</span>)</p>`, Mentions{UserIDs: []int64{1}}},
		{"channel", "see #**engines**", `<p>see <a class="stream" data-stream-id="4" href="/#narrow/channel/4-engines">#engines</a></p>`, Mentions{}},
		{"channel encoded", "#**a.b c**", `<p><a class="stream" data-stream-id="5" href="/#narrow/channel/5-a.2Eb-c">#a.b c</a></p>`, Mentions{}},
		{"topic", "#**engines>notes & more**", `<p><a class="stream-topic" data-stream-id="4" href="/#narrow/channel/4-engines/topic/notes.20.26.20more">#engines &gt; notes &amp; more</a></p>`, Mentions{}},
		{"empty topic", "#**engines>**", `<p><a class="stream-topic" data-stream-id="4" href="/#narrow/channel/4-engines/topic/">#engines &gt; <em>general chat</em></a></p>`, Mentions{}},
		{"message", "#**engines>notes@12**", `<p><a class="message-link" href="/#narrow/channel/4-engines/topic/notes/near/12">#engines &gt; notes @ 💬</a></p>`, Mentions{}},
		{"message in the empty topic", "#**engines>@12**", `<p><a class="message-link" href="/#narrow/channel/4-engines/topic//near/12">#engines &gt; <em>general chat</em> @ 💬</a></p>`, Mentions{}},
		{"at without a number is a topic", "#**engines>a@b**", `<p><a class="stream-topic" data-stream-id="4" href="/#narrow/channel/4-engines/topic/a.40b">#engines &gt; a@b</a></p>`, Mentions{}},
		{"unknown channel", "#**nowhere**", `<p>#<strong>nowhere</strong></p>`, Mentions{}},
		{"unknown channel topic", "#**nowhere>x**", `<p>#<strong>nowhere&gt;x</strong></p>`, Mentions{}},
		{"raw html stays text", `<span class="user-mention" data-user-id="1">x</span>`, `<p>&lt;span class=&#34;user-mention&#34; data-user-id=&#34;1&#34;&gt;x&lt;/span&gt;</p>`, Mentions{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, m := RenderWith(tt.src, Options{Resolver: testResolver()})
			if got != tt.want {
				t.Errorf("RenderWith(%q)\n got %s\nwant %s", tt.src, got, tt.want)
			}
			if diff := cmp.Diff(tt.mentions, m); diff != "" {
				t.Errorf("RenderWith(%q) mentions (-want +got):\n%s", tt.src, diff)
			}
			checkSafe(t, tt.src, got)
		})
	}
}

func TestRenderWithoutResolverKeepsSyntax(t *testing.T) {
	t.Parallel()
	if got := Render("@**Ada Lovelace**"); got != "<p>@<strong>Ada Lovelace</strong></p>" {
		t.Errorf("Render = %s", got)
	}
}
