package sqlstore_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/linkifiers"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// TestListCacheFollowsWrites pins the whole-table caches of users, groups and channels on
// both dialects: a second store on the same database (another process) sees every write of
// the first, a transaction sees its own writes, and a rolled-back write leaves no trace in
// later reads.
func TestListCacheFollowsWrites(t *testing.T) {
	t.Parallel()
	for name, dsn := range databases() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src := dsn(t)
			a, b := mustOpen(t, src), mustOpen(t, src)
			ctx := t.Context()
			names := func(s storage.Storage) (us, gs []string) {
				t.Helper()
				err := s.View(ctx, func(tx storage.ReadTx) error {
					ul, err := tx.Users().List()
					if err != nil {
						return err
					}
					gl, err := tx.Groups().List()
					for _, u := range ul {
						us = append(us, u.FullName)
					}
					for _, g := range gl {
						gs = append(gs, fmt.Sprintf("%s%v", g.Name, g.Members))
					}
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				return us, gs
			}
			want := func(s storage.Storage, what string, wantUsers, wantGroups string) {
				t.Helper()
				us, gs := names(s)
				if got := fmt.Sprint(us); got != wantUsers {
					t.Errorf("%s: users %s, want %s", what, got, wantUsers)
				}
				if got := fmt.Sprint(gs); got != wantGroups {
					t.Errorf("%s: groups %s, want %s", what, got, wantGroups)
				}
			}
			newUser := func(n int) users.User {
				return users.User{Email: fmt.Sprintf("u%d@example.com", n), FullName: fmt.Sprintf("U%d", n),
					Role: users.RoleMember, IsActive: true, APIKey: fmt.Sprintf("%032d", n), Timezone: "UTC",
					DateJoined: time.Unix(1700000000, 0).UTC()}
			}
			var u1 users.ID
			var g users.GroupID
			if err := a.Update(ctx, func(tx storage.Tx) (err error) {
				if u1, err = tx.Users().Create(newUser(1)); err != nil {
					return err
				}
				g, err = tx.Groups().Create(users.Group{Name: "g", Members: []users.ID{u1}})
				return err
			}); err != nil {
				t.Fatal(err)
			}
			want(a, "after the first write", "[U1]", fmt.Sprintf("[g[%d]]", u1))
			want(b, "the other store", "[U1]", fmt.Sprintf("[g[%d]]", u1))

			// b writes; a kept its lists and must notice.
			if err := b.Update(ctx, func(tx storage.Tx) error {
				u, err := tx.Users().Get(u1)
				if err != nil {
					return err
				}
				u.FullName = "Renamed"
				if err := tx.Users().Update(u); err != nil {
					return err
				}
				return tx.Groups().RemoveMembers(g, []users.ID{u1})
			}); err != nil {
				t.Fatal(err)
			}
			// a reads by id before any list: the kept users list is stale, so the reads by id
			// (which use a kept list when it is current) must not take it.
			if err := a.View(ctx, func(tx storage.ReadTx) error {
				u, err := tx.Users().Get(u1)
				if err != nil {
					return err
				}
				many, err := tx.Users().GetMany([]users.ID{u1, u1, u1 + 100})
				if err != nil {
					return err
				}
				gl, err := tx.Groups().ListShared()
				if err != nil {
					return err
				}
				if u.FullName != "Renamed" || len(many) != 1 || many[0].FullName != "Renamed" || len(gl) != 1 || len(gl[0].Members) != 0 {
					t.Errorf("reads by id after the other store's write: Get %q, GetMany %+v, ListShared %+v", u.FullName, many, gl)
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			want(a, "after the other store's write", "[Renamed]", "[g[]]")
			// Now that a keeps the current list, reads by id answer from it, as the store would.
			if err := a.View(ctx, func(tx storage.ReadTx) error {
				u, err := tx.Users().Get(u1)
				if err != nil {
					return err
				}
				_, err = tx.Users().Get(u1 + 100)
				if !errors.Is(err, storage.ErrNotFound) {
					t.Errorf("Get(unknown) from the kept list: %v, want ErrNotFound", err)
				}
				many, err := tx.Users().GetMany([]users.ID{u1 + 100, u1})
				if err != nil {
					return err
				}
				if u.FullName != "Renamed" || len(many) != 1 || many[0].ID != u1 {
					t.Errorf("reads by id from the kept list: Get %q, GetMany %+v", u.FullName, many)
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}

			// Channels: the same through a rename by the other store.
			var c channels.ID
			channelNames := func(s storage.Storage) (out []string) {
				t.Helper()
				if err := s.View(ctx, func(tx storage.ReadTx) error {
					l, err := tx.Channels().List()
					for _, ch := range l {
						out = append(out, ch.Name)
					}
					return err
				}); err != nil {
					t.Fatal(err)
				}
				return out
			}
			if err := a.Update(ctx, func(tx storage.Tx) (err error) {
				c, err = tx.Channels().Create(channels.Channel{Name: "before"})
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(channelNames(a)); got != "[before]" {
				t.Errorf("channels %s, want [before]", got)
			}
			if err := b.Update(ctx, func(tx storage.Tx) error {
				ch, err := tx.Channels().Get(c)
				if err != nil {
					return err
				}
				ch.Name = "after"
				return tx.Channels().Update(ch)
			}); err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(channelNames(a)); got != "[after]" {
				t.Errorf("channels after the other store's rename %s, want [after]", got)
			}

			// The organization's row and the linkifiers: the same.
			if err := a.Update(ctx, func(tx storage.Tx) error {
				if err := tx.Realm().Put(realms.Realm{Name: "Before", URL: "https://chat.example.com"}); err != nil {
					return err
				}
				_, err := tx.Linkifiers().Create(linkifiers.Linkifier{Pattern: "#(?P<id>[0-9]+)", URLTemplate: "https://example.com/{id}"})
				return err
			}); err != nil {
				t.Fatal(err)
			}
			realmAndLinkifiers := func(s storage.Storage) (name string, n int) {
				t.Helper()
				if err := s.View(ctx, func(tx storage.ReadTx) error {
					r, err := tx.Realm().Get()
					if err != nil {
						return err
					}
					l, err := tx.Linkifiers().List()
					name, n = r.Name, len(l)
					return err
				}); err != nil {
					t.Fatal(err)
				}
				return name, n
			}
			if name, n := realmAndLinkifiers(a); name != "Before" || n != 1 {
				t.Errorf("realm %q with %d linkifiers, want Before with 1", name, n)
			}
			if err := b.Update(ctx, func(tx storage.Tx) error {
				r, err := tx.Realm().Get()
				if err != nil {
					return err
				}
				r.Name = "After"
				if err := tx.Realm().Put(r); err != nil {
					return err
				}
				l, err := tx.Linkifiers().List()
				if err != nil {
					return err
				}
				return tx.Linkifiers().Delete(l[0].ID)
			}); err != nil {
				t.Fatal(err)
			}
			if name, n := realmAndLinkifiers(a); name != "After" || n != 0 {
				t.Errorf("after the other store's writes: realm %q with %d linkifiers, want After with 0", name, n)
			}

			// A transaction sees its own writes; a rollback leaves nothing behind.
			boom := errors.New("boom")
			err := a.Update(ctx, func(tx storage.Tx) error {
				if _, err := tx.Users().Create(newUser(2)); err != nil {
					return err
				}
				if err := tx.Groups().AddMembers(g, []users.ID{u1}); err != nil {
					return err
				}
				ul, err := tx.Users().List()
				if err != nil {
					return err
				}
				gl, err := tx.Groups().List()
				if err != nil {
					return err
				}
				if len(ul) != 2 || len(gl) != 1 || len(gl[0].Members) != 1 {
					t.Errorf("inside the writing transaction: %d users, groups %+v", len(ul), gl)
				}
				shared, err := tx.Groups().ListShared()
				if err != nil {
					return err
				}
				u2, err := tx.Users().Get(ul[1].ID)
				if err != nil {
					return err
				}
				if len(shared) != 1 || len(shared[0].Members) != 1 || u2.Email != "u2@example.com" {
					t.Errorf("inside the writing transaction: ListShared %+v, Get of the new user %+v", shared, u2)
				}
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("Update: %v, want boom", err)
			}
			want(a, "after a rollback", "[Renamed]", "[g[]]")
			want(b, "after a rollback, other store", "[Renamed]", "[g[]]")

			// Lists handed out are copies: changing one does not change the next.
			if err := a.View(ctx, func(tx storage.ReadTx) error {
				ul, err := tx.Users().List()
				if err == nil {
					ul[0].FullName = "scribbled"
				}
				return err
			}); err != nil {
				t.Fatal(err)
			}
			want(a, "after modifying a returned list", "[Renamed]", "[g[]]")
		})
	}
}
