package integrations

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Zulip's shared git message templates (zerver/lib/webhooks/git.py), used by every git
// integration.

// commitsLimit is how many commits a push message lists.
const commitsLimit = 20

// committersLimit is how many committers a push message names before "others".
const committersLimit = 3

// quoteBlock is Zulip's CONTENT_MESSAGE_TEMPLATE.
func quoteBlock(message string) string { return "\n~~~ quote\n" + message + "\n~~~" }

// shortSHA is a commit's short hash (11 characters).
func shortSHA(sha string) string {
	if utf8.RuneCountInString(sha) <= 11 {
		return sha
	}
	return string([]rune(sha)[:11])
}

// pyPunctuation is Python's string.punctuation.
const pyPunctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// endsWithPunctuation reports whether s ends with one of Python's string.punctuation.
func endsWithPunctuation(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return s != "" && strings.ContainsRune(pyPunctuation, r)
}

// gitCommit is one commit of a push.
type gitCommit struct {
	name, sha, url, message string
}

// pushCommitsMessage is Zulip's get_push_commits_event_message.
func pushCommitsMessage(user, compareURL, branch string, commits []gitCommit, truncated, deleted, force bool) string {
	if len(commits) == 0 && deleted {
		return fmt.Sprintf("%s [deleted](%s) the branch %s.", user, compareURL, branch)
	}
	pushType := "pushed"
	if force {
		pushType = "force pushed"
	}
	if len(commits) == 0 {
		return fmt.Sprintf("%s [%s](%s) the branch %s.", user, pushType, compareURL, branch)
	}
	plural := ""
	if len(commits) > 1 {
		plural = "s"
	}
	pushed := fmt.Sprintf("%s %d commit%s", pushType, len(commits), plural)
	if compareURL != "" {
		pushed = fmt.Sprintf("[%s](%s) %d commit%s", pushType, compareURL, len(commits), plural)
	}
	base := fmt.Sprintf("%s %s to branch %s.", user, pushed, branch)
	committers := allCommitters(commits)
	if len(committers) == 1 && committers[0].name == user {
		return strings.TrimRight(base+"\n\n"+commitsContent(commits, truncated)+"\n", pyWhitespace)
	}
	details := fmt.Sprintf("%s (%d)", committers[0].name, committers[0].count)
	if len(committers) > 2 {
		for _, c := range committers[1 : len(committers)-1] {
			details += fmt.Sprintf(", %s (%d)", c.name, c.count)
		}
	}
	if len(committers) > 1 {
		last := committers[len(committers)-1]
		details += fmt.Sprintf(" and %s (%d)", last.name, last.count)
	}
	return strings.TrimRight(base+" Commits by "+details+".\n\n"+commitsContent(commits, truncated)+"\n", pyWhitespace)
}

// pyWhitespace is what Python's str.rstrip() removes (ASCII whitespace is all git messages
// end with).
const pyWhitespace = " \t\n\r\v\f"

// commitsContent lists the first commitsLimit commits and says how many more there are.
func commitsContent(commits []gitCommit, truncated bool) string {
	var b strings.Builder
	for _, c := range commits[:min(len(commits), commitsLimit)] {
		subject, _, _ := strings.Cut(c.message, "\n")
		fmt.Fprintf(&b, "* %s ([%s](%s))\n", subject, shortSHA(c.sha), c.url)
	}
	switch {
	case len(commits) > commitsLimit:
		fmt.Fprintf(&b, "[and %d more commit(s)]", len(commits)-commitsLimit)
	case truncated:
		b.WriteString("[and more commit(s)]")
	}
	return strings.TrimRight(b.String(), pyWhitespace)
}

type committer struct {
	name  string
	count int
}

// allCommitters counts the commits of each committer, most first (ties by name), the ones
// past committersLimit summed up as "others".
func allCommitters(commits []gitCommit) []committer {
	counts := map[string]int{}
	var out []committer
	for _, c := range commits {
		if counts[c.name] == 0 {
			out = append(out, committer{name: c.name})
		}
		counts[c.name]++
	}
	for i := range out {
		out[i].count = counts[out[i].name]
	}
	slices.SortStableFunc(out, func(a, b committer) int {
		if a.count != b.count {
			return b.count - a.count
		}
		return strings.Compare(a.name, b.name)
	})
	if len(out) > committersLimit {
		others := 0
		for _, c := range out[committersLimit:] {
			others += c.count
		}
		out = append(out[:committersLimit], committer{name: "others", count: others})
	}
	return out
}

// prMessage holds the parts of Zulip's get_pull_request_event_message.
type prMessage struct {
	user, action, url string
	// number is the PR's or issue's number ("" for none).
	number string
	// target and base are the branches ("from `target` to `base`", when both are set).
	target, base string
	// message is quoted below ("" for none).
	message string
	// assignee is shown as "(assigned to …)", or assignees (two or more joined with commas
	// and "and"); assigneeUpdated is the user an assigned or unassigned action names.
	assignee, assigneeUpdated string
	assignees                 []string
	typ                       string // "PR" by default
	// title is shown in the link when set (the topic then names no PR).
	title *string
}

// pullRequestMessage is Zulip's get_pull_request_event_message.
func pullRequestMessage(p prMessage) string {
	typ := p.typ
	if typ == "" {
		typ = "PR"
	}
	id, title, assignee := "", "", ""
	if p.number != "" {
		id = " #" + p.number
	}
	if p.title != nil {
		title = " " + *p.title
	}
	switch {
	case p.assigneeUpdated != "" && p.action == "assigned":
		assignee = " " + p.assigneeUpdated + " to"
	case p.assigneeUpdated != "" && p.action == "unassigned":
		assignee = " " + p.assigneeUpdated + " from"
	}
	msg := fmt.Sprintf("%s %s%s [%s%s%s](%s)", p.user, p.action, assignee, typ, id, title, p.url)
	branches := p.target != "" && p.base != ""
	if branches {
		msg += fmt.Sprintf(" from `%s` to `%s`", p.target, p.base)
	}
	switch n := len(p.assignees); {
	case n == 1:
		msg += " (assigned to " + p.assignees[0] + ")"
	case n > 1:
		msg += " (assigned to " + strings.Join(p.assignees[:n-1], ", ") + " and " + p.assignees[n-1] + ")"
	case p.assignee != "":
		msg += " (assigned to " + p.assignee + ")"
	}
	punctuation := "."
	if p.message != "" {
		punctuation = ":"
	}
	if p.assignee != "" || len(p.assignees) > 0 || branches || p.title == nil || !endsWithPunctuation(*p.title) {
		msg += punctuation
	}
	if p.message != "" {
		msg += "\n" + quoteBlock(p.message)
	}
	return strings.TrimRight(msg, pyWhitespace)
}

// commitsCommentMessage is Zulip's get_commits_comment_action_message.
func commitsCommentMessage(user, action, commitURL, sha, message string) string {
	msg := fmt.Sprintf("%s %s on [%s](%s)", user, action, shortSHA(sha), commitURL)
	if message == "" {
		return msg + "."
	}
	return msg + ":" + quoteBlock(message)
}

// pushTagMessage is Zulip's get_push_tag_event_message.
func pushTagMessage(user, tag, tagURL, action string) string {
	part := tag
	if tagURL != "" {
		part = "[" + tag + "](" + tagURL + ")"
	}
	msg := user + " " + action + " tag " + part
	if !endsWithPunctuation(tag) {
		msg += "."
	}
	return msg
}

// releaseMessage is Zulip's get_release_event_message.
func releaseMessage(user, action, tag, name, url string) string {
	return fmt.Sprintf("%s %s release [%s](%s) for tag %s.", user, action, name, url, tag)
}

// setupMessage is Zulip's get_setup_webhook_message.
func setupMessage(integration, user string) string {
	msg := integration + " webhook has been successfully configured"
	if user != "" {
		msg += " by " + user
	}
	return msg + "."
}

// branchIgnored applies a git integration's branches parameter as Zulip does: a branch
// that is not a substring of it is ignored.
func branchIgnored(r *Request, branch string) bool {
	branches, ok := r.param("branches")
	return ok && !strings.Contains(branches, branch)
}

// topicWithBranch and topicWithPROrIssue are Zulip's topic templates.
func topicWithBranch(repo, branch string) string { return repo + " / " + branch }

func topicWithPROrIssue(repo, typ, id, title string) string {
	return fmt.Sprintf("%s / %s #%s %s", repo, typ, id, title)
}

// branchesOption is the branches URL option of the git integrations.
var branchesOption = URLOption{Key: "branches", Label: "Filter by branches (comma-separated list)", Validator: "check_string"}
