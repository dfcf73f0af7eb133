package conversations

import (
	"slices"
	"sync/atomic"

	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/linkifiers"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/users"
)

// Rendering a send's content while it waits for its group. Where commits are grouped
// (internal/engine/commits.go) a group's transaction bodies run one after another on the one write
// connection, and rendering the content is a good part of a body's Go work. A sender renders
// its content on its own goroutine once it has joined its group, while the group ahead of it
// commits or the bodies ahead of it run; its body takes that rendering when it is finished and
// still exact, and renders inside the transaction otherwise, as every send did before.
//
// Exactness. A rendering depends on the content, the organization's linkifiers and the
// answers of the mention resolver (users, groups and channels by name or id, and the sender's
// access to a channel). The early rendering uses the linkifiers of the last send that looked
// (the Service's snapshot) and a resolver that answers nothing and records that it was asked:
// when it was asked (the content names a user, a group or a channel) the early rendering is
// dropped; otherwise it is exact when the linkifiers it used are those that the transaction
// reads, compared linkifier by linkifier. A linkifier added, edited or removed between the
// early rendering and the commit therefore makes the body render again, and a renamed user
// never reaches an early rendering.

// prerender states.
const (
	prerenderIdle    int32 = iota // not started
	prerenderRunning              // the sender is rendering
	prerenderDone                 // result is set
	prerenderClaimed              // the body rendered inside: the sender does not start
)

// linkifierSnapshot is the organization's linkifiers as a send's transaction read them, with
// the function compiled from them.
type linkifierSnapshot struct {
	list    []linkifiers.Linkifier
	linkify markdown.Linkify
}

// prerender is a send's content rendered off the transaction (see above). The sender's
// goroutine runs run; the send's transaction body calls take.
type prerender struct {
	state   atomic.Int32
	content string
	snap    *linkifierSnapshot // the Service's snapshot when run started
	s       *Service

	// Set before state becomes prerenderDone, read only after.
	rendered string
	mentions markdown.Mentions
	exact    bool // no resolver was asked
}

// newPrerender returns content's early rendering for s, not yet started.
func (s *Service) newPrerender(content string) *prerender {
	return &prerender{content: content, s: s}
}

// run renders the content with the Service's last linkifier snapshot, unless the body has
// started without it. It runs on the sender's goroutine while the send waits for its group.
func (p *prerender) run() {
	if p == nil || !p.state.CompareAndSwap(prerenderIdle, prerenderRunning) {
		return
	}
	p.snap = p.s.linkifiers.Load()
	if p.snap != nil {
		asked := false
		ask := func() { asked = true }
		r := &markdown.Resolver{
			UserByID:   func(int64) (markdown.MentionedUser, bool) { ask(); return markdown.MentionedUser{}, false },
			UserByName: func(string) (markdown.MentionedUser, bool) { ask(); return markdown.MentionedUser{}, false },
			Group:      func(string) (markdown.MentionedGroup, bool) { ask(); return markdown.MentionedGroup{}, false },
			Channel:    func(string) (int64, bool) { ask(); return 0, false },
		}
		p.rendered, p.mentions = markdown.RenderWith(p.content, markdown.Options{Linkify: p.snap.linkify, Resolver: r})
		p.exact = !asked
	}
	p.state.Store(prerenderDone)
	p.s.prerendered.finished.Add(1)
}

// take Take returns the early rendering of content when it is finished and exact for w (see
// above). A body that finds it not started claims it (the sender will not start it); one that
// finds it running renders for itself rather than wait. It may be called again when the store
// runs the transaction again.
func (p *prerender) Take(w *world.World, content string) (string, markdown.Mentions, bool) {
	if p == nil || p.content != content {
		return "", markdown.Mentions{}, false
	}
	if !p.state.CompareAndSwap(prerenderIdle, prerenderClaimed) && p.state.Load() == prerenderDone &&
		p.exact && sameLinkifiers(p.snap.list, w.LinkifierList()) {
		p.s.prerendered.taken.Add(1)
		return p.rendered, p.mentions, true
	}
	return "", markdown.Mentions{}, false
}

// noteLinkifiers makes w's linkifiers the Service's snapshot for the early renderings of the
// sends that follow, unless it is that already: then w takes the snapshot's compiled
// linkifiers instead of compiling its own, should it render.
func (s *Service) noteLinkifiers(w *world.World) {
	if snap := s.linkifiers.Load(); snap != nil && sameLinkifiers(snap.list, w.LinkifierList()) {
		w.UseLinkifiers(snap.linkify)
		return
	}
	s.linkifiers.Store(&linkifierSnapshot{list: w.LinkifierList(), linkify: w.Linkifiers()})
}

// sameLinkifiers reports whether a and b are the same linkifiers in the same order.
func sameLinkifiers(a, b []linkifiers.Linkifier) bool {
	return slices.EqualFunc(a, b, func(x, y linkifiers.Linkifier) bool {
		return x.ID == y.ID && x.Pattern == y.Pattern && x.URLTemplate == y.URLTemplate && x.Order == y.Order &&
			sameString(x.ExampleInput, y.ExampleInput) && sameString(x.ReverseTemplate, y.ReverseTemplate) &&
			slices.Equal(x.AlternativeURLTemplates, y.AlternativeURLTemplates)
	})
}

// sameString reports whether two optional strings are both unset or equal.
func sameString(a, b *string) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// renderSent renders a sent message's content for sender: the send's early rendering (w.pre)
// when it is exact, else now.
func renderSent(w *world.World, content string, sender users.User) (string, markdown.Mentions) {
	if w.Pre != nil {
		if rendered, mentions, ok := w.Pre.Take(w, content); ok {
			return rendered, mentions
		}
	}
	return RenderMessage(w, content, sender)
}
