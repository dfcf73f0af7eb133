package chattest

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/storage/memory"
)

// template is an organization built once per process and copied for each fixture.
type template struct {
	store    *memory.Store // never written after it is built
	accounts []seeds.Account
}

// devTemplate returns the development organization, built on first use: the package's only
// state shared between fixtures, immutable once built (fixtures get clones).
var devTemplate = sync.OnceValues(func() (*template, error) {
	return buildTemplate(seeds.Dev(seeds.DevPassword))
})

// buildTemplate applies seed through a Service on a new memory store at the fixtures' epoch
// and URL, with the fixtures' password hashing, so that a clone of the store is the
// organization a fixture would have built itself.
func buildTemplate(seed *seeds.Seed) (*template, error) {
	store := memory.New()
	clock := NewClock(Epoch())
	svc, err := chat.New(chat.Options{Store: store, Now: clock.Now, Logger: slog.New(slog.DiscardHandler),
		PasswordHashing: cheapHashing()})
	if err != nil {
		return nil, err
	}
	accounts, err := seed.Apply(context.Background(), svc, DefaultURL)
	if cerr := svc.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("build the organization %q: %w", seed.Organization.Name, err)
	}
	return &template{store: store, accounts: accounts}, nil
}
