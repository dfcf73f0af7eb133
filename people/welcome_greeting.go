package people

import (
	"strings"

	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/users"
)

// zulipHelpURL is Zulip's help center, where the Welcome Bot's greeting links: this server
// serves no /help pages of its own, so the greeting's relative links (/help/...) go there.
const zulipHelpURL = "https://zulip.com/help/"

// Zulip's organization types whose greeting speaks of classes (Realm.ORG_TYPES
// education_nonprofit and education).
const (
	orgTypeEducationNonprofit = 30
	orgTypeEducation          = 35
)

// welcomeGreeting is the Welcome Bot's first direct message to a new user, Zulip's
// send_initial_direct_message (zerver/lib/onboarding.py) in its words: the getting started
// guide (the class guide in an education organization), the guide to moving an
// organization for administrators, and the navigation tour video when the server has one
// (videoURL, Options.NavigationTourVideoURL). Zulip's note on the onboarding conversations
// of the organization and on demo organizations has no counterpart here: this server creates
// neither.
func welcomeGreeting(realm realms.Realm, u users.User, videoURL string) string {
	orgType := realm.Int("org_type")
	education := orgType == orgTypeEducationNonprofit || orgType == orgTypeEducation
	gettingStarted := "\nTo learn more, check out our [getting started guide](" + zulipHelpURL + "getting-started-with-zulip)!\n"
	if education {
		gettingStarted = "\nTo learn more, check out our [using Zulip for a class guide](" + zulipHelpURL + "using-zulip-for-a-class)!\n"
	}
	organizationSetup := ""
	if u.Role.IsAdmin() {
		organizationSetup = "\nWe also have a guide for [moving your organization to Zulip](" + zulipHelpURL + "moving-to-zulip).\n"
		if education {
			organizationSetup = "\nWe also have a guide for [setting up Zulip for a class](" + zulipHelpURL + "setting-up-zulip-for-a-class).\n"
		}
	}
	video := ""
	if videoURL != "" {
		video = "\nYou can always come back to the [Welcome to Zulip video](" + videoURL + ") for a quick app overview.\n"
	}
	content := "\nHello, and welcome to Zulip!👋 \n\n" + gettingStarted + " " + organizationSetup + "\n\n" + video + "\n\n\n\n"
	return removeSingleNewlines(content)
}

// removeSingleNewlines is Zulip's remove_single_newlines: the text without its leading and
// trailing newlines, each newline alone (not beside another, nor before a list item "- ",
// "* " or "1. ") with the spaces after it made one space, so that the lines of a paragraph
// written over several lines join.
func removeSingleNewlines(s string) string {
	s = strings.Trim(s, "\n")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\n' || (i > 0 && s[i-1] == '\n') || keepsNewline(s[i+1:]) {
			b.WriteByte(s[i])
			continue
		}
		b.WriteByte(' ')
		for i+1 < len(s) && s[i+1] == ' ' {
			i++
		}
	}
	return b.String()
}

// keepsNewline reports whether the text after a newline keeps it: another newline, or a list
// item's start.
func keepsNewline(rest string) bool {
	if rest == "" {
		return false
	}
	if rest[0] == '\n' || strings.HasPrefix(rest, "- ") || strings.HasPrefix(rest, "* ") {
		return true
	}
	digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
	return digits > 0 && strings.HasPrefix(rest[digits:], ". ")
}
