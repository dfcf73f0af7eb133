package people

import (
	"testing"

	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/users"
)

// TestWelcomeGreeting checks the Welcome Bot's greeting against what Zulip's
// send_initial_direct_message writes (its text put through remove_single_newlines), with
// the help links at zulip.com.
func TestWelcomeGreeting(t *testing.T) {
	t.Parallel()
	const (
		hello   = "Hello, and welcome to Zulip!👋 \n\n\n"
		guide   = "To learn more, check out our [getting started guide](https://zulip.com/help/getting-started-with-zulip)!"
		class   = "To learn more, check out our [using Zulip for a class guide](https://zulip.com/help/using-zulip-for-a-class)!"
		moving  = "  We also have a guide for [moving your organization to Zulip](https://zulip.com/help/moving-to-zulip)."
		setupCl = "  We also have a guide for [setting up Zulip for a class](https://zulip.com/help/setting-up-zulip-for-a-class)."
		video   = "\n\n\n\nYou can always come back to the [Welcome to Zulip video](https://example.com/tour.mp4) for a quick app overview."
	)
	for _, c := range []struct {
		name    string
		orgType int64
		role    users.Role
		video   string
		want    string
	}{
		{"member", 0, users.RoleMember, "", hello + guide + " "},
		{"administrator with the tour video", 10, users.RoleAdministrator, "https://example.com/tour.mp4", hello + guide + moving + video},
		{"owner", 0, users.RoleOwner, "", hello + guide + moving},
		{"member of a school", 35, users.RoleMember, "", hello + class + " "},
		{"administrator of a nonprofit school", 30, users.RoleAdministrator, "", hello + class + setupCl},
	} {
		realm := realms.Realm{Settings: map[string]any{"org_type": c.orgType}}
		if got := welcomeGreeting(realm, users.User{Role: c.role}, c.video); got != c.want {
			t.Errorf("%s: greeting\n%q, want\n%q", c.name, got, c.want)
		}
	}
}

// TestRemoveSingleNewlines checks Zulip's remove_single_newlines.
func TestRemoveSingleNewlines(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"\none\ntwo\n":            "one two",
		"one\n   two":             "one two",
		"one\n\ntwo":              "one\n\ntwo",
		"items:\n- a\n* b\n12. c": "items:\n- a\n* b\n12. c",
		"not a list\n12.c":        "not a list 12.c",
		"\n\n":                    "",
		"end\n ":                  "end ",
	} {
		if got := removeSingleNewlines(in); got != want {
			t.Errorf("removeSingleNewlines(%q) = %q, want %q", in, got, want)
		}
	}
}
