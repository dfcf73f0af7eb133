package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/httpapi"
	"github.com/teamchat/chat/storage"
)

// zuliprcCmd writes a .zuliprc for one user. It opens the store serve would open, with the
// same flags, and provisions it the same way when it is empty. A memory store lives only inside
// the serving process, so for --store memory the command rebuilds the organization in its own
// process: that yields the serving process's API keys only where they are fixed, which is true
// of every --dev user and bot (keys derived from the email and --dev-password) and of --seed
// entries that carry an api_key. Other users need a persistent store.
type zuliprcCmd struct {
	orgFlags `embed:""`
	User     string `help:"Email of the user (or bot) whose credentials to write." required:""`
	Out      string `help:"File to write (mode 0600); - or empty writes to standard output." short:"o"`
}

// Run writes the file.
func (c *zuliprcCmd) Run(logger *slog.Logger) error {
	ctx := context.Background()
	seed, err := c.seed()
	if err != nil {
		return err
	}
	if c.Store == "memory" && !seed.HasFixedAPIKey(c.User) {
		return fmt.Errorf("%s has no fixed API key in this organization: with --store memory, "+
			"zuliprc works for --dev users and for --seed entries with an api_key", c.User)
	}
	store, err := openStore(ctx, c.Store)
	if err != nil {
		return err
	}
	defer store.Close()
	opts := chat.Options{Store: store, Logger: logger}
	if c.Store == "memory" {
		// The organization is discarded on exit: its password hashes need not be costly.
		opts.PasswordHashing = chat.PasswordHashing{MemoryKiB: 64, Passes: 1, Threads: 1}
	}
	svc, err := chat.New(opts)
	if err != nil {
		return err
	}
	defer svc.Close()
	realmURL := c.RealmURL
	if realmURL == "" {
		realmURL = "http://" + c.Listen
	}
	if err := c.provision(ctx, svc, realmURL); err != nil {
		return err
	}

	var rc string
	err = store.View(ctx, func(tx storage.ReadTx) error {
		realm, err := tx.Realm().Get()
		if err != nil {
			return fmt.Errorf("read organization: %w", err)
		}
		u, err := tx.Users().GetByEmail(c.User)
		if errors.Is(err, storage.ErrNotFound) {
			return fmt.Errorf("no user with email %s", c.User)
		}
		if err != nil {
			return err
		}
		if !u.IsActive {
			return fmt.Errorf("user %s is deactivated", u.Email)
		}
		rc = httpapi.Zuliprc(u.Email, u.APIKey, realm.URL)
		return nil
	})
	if err != nil {
		return err
	}
	if c.Out == "" || c.Out == "-" {
		_, err = io.WriteString(os.Stdout, rc)
		return err
	}
	return os.WriteFile(c.Out, []byte(rc), 0o600)
}
