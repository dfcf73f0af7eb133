package chat_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/teamchat/chat"
	"github.com/teamchat/chat/linkifiers"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/sqlstore"
)

// TestPrerenderRacingChange: a send renders its content while it waits for its commit group
// (messages_prerender.go), with the linkifiers the last send saw; a change committed in the
// same group just ahead of it (a linkifier added or removed, the mentioned user renamed) must
// still reach the stored rendering. The send's early rendering is finished before the group
// runs, so the transaction has it to check; a later send with the same content takes its early
// rendering when it is exact (no mention) and renders inside otherwise.
func TestPrerenderRacingChange(t *testing.T) {
	t.Parallel()
	type env struct {
		f    *fixture
		link linkifiers.ID // the linkifier the organization starts with (0: none)
	}
	tests := []struct {
		name      string
		linkifier bool // the organization has `#(?P<id>\d+)` at the start
		content   string
		change    func(ctx context.Context, e env) error
		want      func(e env) string // in the stored rendering
		thenTaken bool               // the same content sent again takes its early rendering
	}{{
		name:    "linkifier added",
		content: "see #42",
		change: func(ctx context.Context, e env) error {
			_, err := e.f.svc.AddLinkifier(ctx, e.f.actor("admin"), chat.AddLinkifierParams{Pattern: `#(?P<id>\d+)`, URLTemplate: "https://tracker.example/{id}"})
			return err
		},
		want:      func(env) string { return `<a href="https://tracker.example/42">#42</a>` },
		thenTaken: true,
	}, {
		name:      "linkifier removed",
		linkifier: true,
		content:   "see #42",
		change: func(ctx context.Context, e env) error {
			_, err := e.f.svc.RemoveLinkifier(ctx, e.f.actor("admin"), chat.RemoveLinkifierParams{FilterID: e.link})
			return err
		},
		want:      func(env) string { return `<p>see #42</p>` },
		thenTaken: true,
	}, {
		name:    "mentioned user renamed",
		content: "hi @**Nia Newname**",
		change: func(ctx context.Context, e env) error {
			return errOf(e.f.svc.UpdateUser(ctx, e.f.actor("admin"), chat.UpdateUserParams{UserID: e.f.ids["member"], FullName: ptr("Nia Newname")}))
		},
		want: func(e env) string {
			return fmt.Sprintf(`<span class="user-mention" data-user-id="%d">@Nia Newname</span>`, e.f.ids["member"])
		},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			store, err := sqlstore.Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "chat.db"))
			if err != nil {
				t.Fatal(err)
			}
			e := env{f: newFixtureOn(t, store)}
			f := e.f
			if tc.linkifier {
				e.link = f.mustAddLinkifier(t, chat.AddLinkifierParams{Pattern: `#(?P<id>\d+)`, URLTemplate: "https://tracker.example/{id}"})
			}
			ch := mustChannel(t, f, "prerender", chat.NewChannelSettings{}, "admin", "member")
			ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
			defer cancel()
			send := func(content string) (messages.ID, error) {
				res, err := f.svc.SendMessage(ctx, f.actor("admin"), chat.SendMessageParams{Type: "stream", ChannelID: &ch, Topic: ptr("t"), Content: content})
				return res.ID, err
			}
			// The first send notes the organization's linkifiers for the early renderings.
			if _, err := send("warm"); err != nil {
				t.Fatal(err)
			}
			waitFor := func(what string, cond func() bool) {
				for !cond() {
					if ctx.Err() != nil {
						t.Fatalf("waiting for %s: %v", what, ctx.Err())
					}
					runtime.Gosched()
				}
			}

			release := f.svc.HoldWrites()
			var wg sync.WaitGroup
			errs := make([]error, 3)
			var id messages.ID
			start := func(i int, run func() error) {
				wg.Add(1)
				go func() { defer wg.Done(); errs[i] = run() }()
			}
			start(0, func() error { _, err := send("lead"); return err }) // a group of its own, held
			waitFor("the lead", f.svc.LeadingAlone)
			start(1, func() error { return tc.change(ctx, e) })
			waitFor("the change to queue", func() bool { return f.svc.WaitingWrites() == 1 })
			finished, taken := f.svc.Prerendered()
			start(2, func() (err error) { id, err = send(tc.content); return err })
			waitFor("the send's early rendering", func() bool {
				done, _ := f.svc.Prerendered()
				return f.svc.WaitingWrites() == 2 && done > finished
			})
			release()
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Fatalf("mutation %d: %v", i, err)
				}
			}
			if _, now := f.svc.Prerendered(); now != taken+1 { // the lead's only
				t.Errorf("early renderings taken: %d, want %d (the racing send's is stale)", now-taken, 1)
			}
			checkRendered(t, store, id, tc.want(e))

			// Sent again, with nothing racing it.
			_, taken = f.svc.Prerendered()
			again, err := send(tc.content)
			if err != nil {
				t.Fatal(err)
			}
			checkRendered(t, store, again, tc.want(e))
			want := taken
			if tc.thenTaken {
				want++
			}
			if _, now := f.svc.Prerendered(); now != want {
				t.Errorf("sent again: early renderings taken %d, want %d", now-taken, want-taken)
			}
		})
	}
}

// checkRendered fails t unless message id's stored rendering contains want.
func checkRendered(t *testing.T, store storage.Storage, id messages.ID, want string) {
	t.Helper()
	if err := store.View(t.Context(), func(tx storage.ReadTx) error {
		m, err := tx.Messages().Get(id)
		if err != nil {
			return err
		}
		if !strings.Contains(m.Rendered, want) {
			t.Errorf("rendered %q, want it to contain %q", m.Rendered, want)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
