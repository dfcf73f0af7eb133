package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/storage/memory"
)

// mustServeOrg provisions the organization serve builds from flags, on its own memory store.
func mustServeOrg(t *testing.T, flags orgFlags) *chat.Service {
	t.Helper()
	svc, err := chat.New(chat.Options{Store: memory.New(), Logger: discardLogger(),
		PasswordHashing: chat.PasswordHashing{MemoryKiB: 64, Passes: 1, Threads: 1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	if err := flags.provision(t.Context(), svc, "http://"+flags.Listen); err != nil {
		t.Fatal(err)
	}
	return svc
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// mustReadZuliprc parses the [api] section of a .zuliprc.
func mustReadZuliprc(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if lines[0] != "[api]" {
		t.Fatalf("first line %q, want [api]", lines[0])
	}
	kv := map[string]string{}
	for _, l := range lines[1:] {
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			t.Fatalf("line %q is not key=value", l)
		}
		kv[k] = v
	}
	return kv
}

func TestZuliprcDevKeyAuthenticatesAgainstServe(t *testing.T) {
	t.Parallel()
	flags := orgFlags{Listen: "127.0.0.1:9999", Store: "memory", Dev: true, DevPassword: "devpassword"}
	svc := mustServeOrg(t, flags)
	for _, email := range []string{"iago@zulip.com", "ZOE@zulip.com", "default-bot@zulip.com"} {
		out := filepath.Join(t.TempDir(), "zuliprc")
		cmd := zuliprcCmd{orgFlags: flags, User: strings.ToLower(email), Out: out}
		if err := cmd.Run(discardLogger()); err != nil {
			t.Fatalf("zuliprc --user %s: %v", email, err)
		}
		rc := mustReadZuliprc(t, out)
		if rc["site"] != "http://127.0.0.1:9999" || !strings.EqualFold(rc["email"], email) {
			t.Errorf("zuliprc for %s = %v", email, rc)
		}
		if _, err := svc.AuthenticateAPIKey(t.Context(), rc["email"], rc["key"]); err != nil {
			t.Errorf("key of %s from zuliprc does not authenticate against serve's organization: %v", email, err)
		}
		if info, err := os.Stat(out); err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("zuliprc mode = %v, %v; want 0600", info.Mode().Perm(), err)
		}
	}
}

func TestZuliprcRefusals(t *testing.T) {
	t.Parallel()
	seedPath := filepath.Join(t.TempDir(), "seed.json")
	seed := `{"organization":{"name":"Acme"},"users":[
		{"email":"keyed@acme.test","full_name":"Keyed","api_key":"abcdefghijklmnopqrstuvwxyz012345"},
		{"email":"random@acme.test","full_name":"Random"}]}`
	if err := os.WriteFile(seedPath, []byte(seed), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		flags orgFlags
		user  string
		want  string
	}{
		{"unknown dev user", orgFlags{Store: "memory", Dev: true}, "nobody@zulip.com", "no fixed API key"},
		{"seed user without api_key", orgFlags{Store: "memory", Seed: seedPath}, "random@acme.test", "no fixed API key"},
		{"no organization flags", orgFlags{Store: "memory"}, "iago@zulip.com", "no fixed API key"},
		{"dev and seed", orgFlags{Store: "memory", Dev: true, Seed: seedPath}, "iago@zulip.com", "exclude each other"},
		{"unknown store", orgFlags{Store: "redis", Dev: true}, "iago@zulip.com", "unsupported --store"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "zuliprc")
			tt.flags.Listen = "127.0.0.1:9999"
			cmd := zuliprcCmd{orgFlags: tt.flags, User: tt.user, Out: out}
			err := cmd.Run(discardLogger())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a refused zuliprc wrote %s (stat err %v)", out, err)
			}
		})
	}

	t.Run("seed user with api_key", func(t *testing.T) {
		t.Parallel()
		out := filepath.Join(t.TempDir(), "zuliprc")
		cmd := zuliprcCmd{orgFlags: orgFlags{Store: "memory", Seed: seedPath, Listen: "127.0.0.1:1"}, User: "keyed@acme.test", Out: out}
		if err := cmd.Run(discardLogger()); err != nil {
			t.Fatal(err)
		}
		rc := mustReadZuliprc(t, out)
		want := map[string]string{"email": "keyed@acme.test", "key": "abcdefghijklmnopqrstuvwxyz012345", "site": "http://127.0.0.1:1"}
		for k, v := range want {
			if rc[k] != v {
				t.Errorf("%s = %q, want %q", k, rc[k], v)
			}
		}
	})
}

func TestDevAPIKey(t *testing.T) {
	t.Parallel()
	a := seeds.DevAPIKey("Iago@Zulip.com", "devpassword")
	if a != seeds.DevAPIKey("iago@zulip.com", "devpassword") {
		t.Error("dev key depends on the email's case")
	}
	if a == seeds.DevAPIKey("iago@zulip.com", "other") || a == seeds.DevAPIKey("hamlet@zulip.com", "devpassword") {
		t.Error("dev key ignores the password or the email")
	}
	if len(a) != 32 || strings.Trim(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") != "" {
		t.Errorf("dev key %q is not 32 alphanumerics", a)
	}
}
