package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/users"
)

// greet tells the person who started the server what to do next: where it serves, where the
// data lives and, under --dev, how to log in and get credentials for a client.
// addr is the address the listener bound.
func (c *serveCmd) greet(w io.Writer, realmURL, addr string) {
	fmt.Fprintf(w, "\nteamchat serves the Zulip API at %s\n", realmURL)
	fmt.Fprintf(w, "  chat in a browser: open %s/ (the Zulip mobile and desktop apps connect to the same URL)\n", realmURL)
	fmt.Fprintf(w, "  data: %s\n", dataLocation(c.Store))
	if c.Dev {
		fmt.Fprintf(w, "  development users (password %q; the login page also offers to log in as any of them):\n", c.DevPassword)
		for _, u := range seeds.Dev(c.DevPassword).Users {
			switch u.Role {
			case users.RoleOwner, users.RoleAdministrator, users.RoleModerator, users.RoleGuest:
				fmt.Fprintf(w, "    %-22s %s\n", u.Email, roleName(u.Role))
			}
		}
		fmt.Fprintf(w, "    %-22s member (and every other user of %s/api/v1/dev_list_users)\n", "hamlet@zulip.com", realmURL)
		fmt.Fprintf(w, "  an API key:  curl -s -X POST %s/api/v1/dev_fetch_api_key -d username=iago@zulip.com\n", realmURL)
		fmt.Fprintf(w, "  a .zuliprc:  %s zuliprc %s--user iago@zulip.com --out ~/.zuliprc\n", selfCommand(), c.orgArgs(addr))
	} else {
		fmt.Fprintf(w, "  log in with POST %s/api/v1/fetch_api_key (username, password) or write a .zuliprc:\n", realmURL)
		fmt.Fprintf(w, "    %s zuliprc %s--user EMAIL --out ~/.zuliprc\n", selfCommand(), c.orgArgs(addr))
	}
	fmt.Fprintf(w, "  stop: Ctrl-C (SIGINT) or SIGTERM; event queues are saved and clients continue after a restart\n\n")
}

// roleName is a role as the greeting names it.
func roleName(r users.Role) string {
	switch r {
	case users.RoleOwner:
		return "owner"
	case users.RoleAdministrator:
		return "administrator"
	case users.RoleModerator:
		return "moderator"
	case users.RoleGuest:
		return "guest"
	}
	return "member"
}

// orgArgs are the flags zuliprc needs to find the organization serve provides on addr (empty,
// or ending in a space).
func (c *serveCmd) orgArgs(addr string) string {
	var b strings.Builder
	if c.Store != "sqlite:./chat.db" {
		fmt.Fprintf(&b, "--store '%s' ", c.Store)
	}
	if addr != "127.0.0.1:9991" && c.RealmURL == "" {
		fmt.Fprintf(&b, "--listen %s ", addr)
	}
	if c.RealmURL != "" {
		fmt.Fprintf(&b, "--realm-url %s ", c.RealmURL)
	}
	if c.Dev {
		b.WriteString("--dev ")
		if c.DevPassword != "devpassword" {
			fmt.Fprintf(&b, "--dev-password '%s' ", c.DevPassword)
		}
	}
	if c.Seed != "" {
		fmt.Fprintf(&b, "--seed %s ", c.Seed)
	}
	return b.String()
}

// dataLocation says where --store keeps the data, without a password it may hold.
func dataLocation(store string) string {
	switch {
	case store == "memory":
		return "in memory only (lost when the server stops)"
	case strings.HasPrefix(store, "sqlite:"):
		path, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(store, "sqlite:"), "//"), "?")
		return "SQLite file " + path
	}
	u, err := url.Parse(store)
	if err != nil {
		return "the database given by --store"
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return "PostgreSQL " + u.Redacted()
}

// startedByGoRun reports whether this process is a binary that `go run` built and runs (it
// lives in the go command's temporary build directory).
func startedByGoRun() bool {
	exe, err := os.Executable()
	return err == nil && strings.Contains(exe, string(os.PathSeparator)+"go-build")
}

// selfCommand is how the person runs this program again.
func selfCommand() string {
	if startedByGoRun() {
		return "go run ./examples/chatserver"
	}
	return os.Args[0]
}

// followParent stops the server (cancel) when the `go run` that started it ends: `go run`
// does not pass SIGTERM on to its child, so `kill %1` on it would leave the server running.
// A server not started by `go run` ignores its parent (a built binary may well outlive the
// shell that started it).
func followParent(ctx context.Context, cancel context.CancelFunc, interval time.Duration) {
	if startedByGoRun() {
		watchParent(ctx, cancel, interval, os.Getppid)
	}
}

// watchParent calls cancel once getppid no longer names the parent it named at first (the
// parent ended and the process was adopted), checking every interval until ctx ends.
func watchParent(ctx context.Context, cancel context.CancelFunc, interval time.Duration, getppid func() int) {
	parent := getppid()
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if getppid() != parent {
					cancel()
					return
				}
			}
		}
	}()
}
