package integrations

import (
	"fmt"
	"slices"
	"strings"
)

// bitbucket2Integration is Bitbucket Cloud (zerver/webhooks/bitbucket2): the event is read
// from the payload's keys (and, for pull requests, the X-Event-Key header); a push sends one
// message per change. Its stream and topic parameters are percent-decoded once more, as
// Zulip's unquote_url_parameters does.
var bitbucket2Integration = &Integration{
	Name: "bitbucket2", DisplayName: "Bitbucket", ClientName: "Bitbucket2",
	EventHeader: "X-Event-Key",
	AllEventTypes: []string{"change_commit_status", "pull_request_comment_created", "pull_request_updated", "pull_request_unapproved",
		"push", "pull_request_approved", "pull_request_fulfilled", "issue_created", "issue_commented", "fork",
		"pull_request_comment_updated", "pull_request_created", "pull_request_rejected", "repo:updated", "issue_updated",
		"commit_comment", "pull_request_comment_deleted"},
	URLOptions: []URLOption{branchesOption},
	unquote:    true,
	format:     formatBitbucket2,
}

var bitbucketPRActions = []string{"approved", "unapproved", "created", "updated", "rejected", "fulfilled",
	"comment_created", "comment_updated", "comment_deleted"}

// bbUser is Zulip's get_user_info: the display name, else the nickname.
func bbUser(u val) string {
	switch {
	case u.has("display_name"):
		return u.get("display_name").str()
	case u.has("nickname"):
		return u.get("nickname").str()
	}
	return "Unknown user"
}

func bbHTML(v val) string { return v.at("links").at("html").at("href").str() }

func formatBitbucket2(r *Request) ([]Message, error) {
	root, p, err := decode(r.Body)
	if err != nil {
		return nil, err
	}
	event, err := bitbucketEvent(r, root)
	if p.err != nil {
		return nil, p.err
	}
	if err != nil {
		return nil, err
	}
	if event == "push" {
		return p.done(bitbucketPush(r, root))
	}
	b := bb{p: root, includeTitle: r.Topic != nil}
	var topic string
	switch {
	case strings.HasPrefix(event, "pull_request"):
		pr := root.at("pullrequest")
		topic = topicWithPROrIssue(root.at("repository").at("name").str(), "PR", pr.at("id").integer(), pr.at("title").str())
	case strings.HasPrefix(event, "issue"):
		issue := root.at("issue")
		topic = topicWithPROrIssue(root.at("repository").at("name").str(), "issue", issue.at("id").integer(), issue.at("title").str())
	default:
		topic = root.at("repository").at("name").str()
	}
	return p.done([]Message{{Topic: topic, Content: bitbucketFormatters[event](b), Event: event}})
}

// bitbucketEvent is Zulip's get_type.
func bitbucketEvent(r *Request, p val) (string, error) {
	switch {
	case p.has("push"):
		return "push", nil
	case p.has("fork"):
		return "fork", nil
	case p.has("comment") && p.has("commit"):
		return "commit_comment", nil
	case p.has("commit_status"):
		return "change_commit_status", nil
	case p.has("issue"):
		if p.has("changes") {
			return "issue_updated", nil
		}
		if p.has("comment") {
			return "issue_commented", nil
		}
		return "issue_created", nil
	}
	key, err := r.header("X-Event-Key")
	if err != nil {
		return "", err
	}
	if p.has("pullrequest") {
		if action, ok := strings.CutPrefix(key, "pullrequest:"); ok && slices.Contains(bitbucketPRActions, action) {
			return "pull_request_" + action, nil
		}
	} else if key == "repo:updated" {
		return key, nil
	}
	return "", unsupported(key)
}

// bitbucketPush sends a message per change of a push; nothing for a push without changes or
// for a branch the branches parameter leaves out.
func bitbucketPush(r *Request, p val) []Message {
	changes := p.at("push").at("changes").list()
	if len(changes) == 0 {
		return nil
	}
	last := changes[len(changes)-1]
	if ref := bbRef(last); ref.at("type").str() != "tag" {
		if branches, _ := r.param("branches"); branches != "" && !strings.Contains(branches, ref.at("name").str()) {
			return nil
		}
	}
	repo := p.at("repository").at("name").str()
	user := bbUser(p.at("actor"))
	msgs := make([]Message, 0, len(changes))
	for _, c := range changes {
		ref := bbRef(c)
		var topic, body string
		switch {
		case ref.at("type").str() == "tag":
			action := "pushed"
			if !c.get("new").truthy() {
				action = "removed"
			}
			topic, body = repo, pushTagMessage(user, ref.at("name").str(), bbHTML(ref), action)
		case c.get("new").isNone():
			topic, body = topicWithBranch(repo, ref.at("name").str()), user+" deleted branch "+ref.at("name").str()+"."
		case c.at("forced").v == true:
			n := c.get("new")
			topic = topicWithBranch(repo, n.at("name").str())
			body = fmt.Sprintf("%s [force pushed](%s) to branch %s. Head is now %s.", user, bbHTML(c), n.at("name").str(), n.at("target").at("hash").str())
		default:
			topic, body = topicWithBranch(repo, ref.at("name").str()), bitbucketCommits(user, c)
		}
		msgs = append(msgs, Message{Topic: topic, Content: body, Event: "push"})
	}
	return msgs
}

// bbRef is a change's new reference, or its old one when the change removed it.
func bbRef(change val) val {
	if n := change.get("new"); n.truthy() {
		return n
	}
	return change.at("old")
}

// isNone reports whether v is absent or null.
func (v val) isNone() bool { return !v.ok || v.v == nil }

func bitbucketCommits(user string, c val) string {
	var commits []gitCommit
	for _, cm := range c.at("commits").list() {
		author := cm.at("author")
		name := ""
		if author.has("user") {
			name = bbUser(author.get("user"))
		} else if fields := strings.Fields(author.at("raw").str()); len(fields) > 0 {
			name = fields[0]
		} else {
			author.get("raw").fail("is empty")
		}
		commits = append(commits, gitCommit{name: name, sha: cm.at("hash").str(), url: bbHTML(cm), message: cm.at("message").str()})
	}
	return pushCommitsMessage(user, bbHTML(c), c.at("new").at("name").str(), commits, c.at("truncated").v == true, false, false)
}

// bb is what a Bitbucket formatter reads.
type bb struct {
	p            val
	includeTitle bool
}

func (b bb) actor() string { return bbUser(b.p.at("actor")) }

func (b bb) titleOf(v val) *string {
	if !b.includeTitle {
		return nil
	}
	t := v.at("title").str()
	return &t
}

var bitbucketFormatters = map[string]func(bb) string{
	"fork": func(b bb) string {
		f := b.p.at("fork")
		return fmt.Sprintf("%s forked the repository into [%s](%s).", b.actor(), f.at("full_name").str(), bbHTML(f))
	},
	"commit_comment":               bbCommitComment,
	"change_commit_status":         bbCommitStatus,
	"issue_updated":                bbIssue("updated"),
	"issue_created":                bbIssue("created"),
	"issue_commented":              func(b bb) string { return bbIssue("[commented](" + bbHTML(b.p.at("comment")) + ") on")(b) },
	"pull_request_created":         bbPRCreatedOrUpdated("created"),
	"pull_request_updated":         bbPRCreatedOrUpdated("updated"),
	"pull_request_approved":        bbPR("approved"),
	"pull_request_unapproved":      bbPR("unapproved"),
	"pull_request_fulfilled":       bbPR("merged"),
	"pull_request_rejected":        bbPR("rejected"),
	"pull_request_comment_created": func(b bb) string { return bbPRComment(b, "[commented]("+bbHTML(b.p.at("comment"))+")") },
	"pull_request_comment_updated": func(b bb) string { return bbPRComment(b, "updated a [comment]("+bbHTML(b.p.at("comment"))+")") },
	"pull_request_comment_deleted": func(b bb) string { return bbPRComment(b, "deleted a [comment]("+bbHTML(b.p.at("comment"))+")") },
	"repo:updated":                 bbRepoUpdated,
}

func bbCommitComment(b bb) string {
	c := b.p.at("comment")
	return commitsCommentMessage(b.actor(), "[commented]("+bbHTML(c)+")", bbHTML(c.at("commit")), c.at("commit").at("hash").str(),
		c.at("content").at("raw").str())
}

func bbCommitStatus(b bb) string {
	s := b.p.at("commit_status")
	api := s.at("links").at("commit").at("href").str()
	id := api[strings.LastIndex(api, "/")+1:]
	info := fmt.Sprintf("[%s](%s/commits/%s)", shortSHA(id), bbHTML(b.p.at("repository")), id)
	return fmt.Sprintf("[System %s](%s) changed status of %s to %s.", s.at("key").str(), s.at("url").str(), info, s.at("state").str())
}

func bbIssue(action string) func(bb) string {
	return func(b bb) string {
		issue := b.p.at("issue")
		m := prMessage{user: b.actor(), action: action, url: bbHTML(issue), number: issue.at("id").integer(), typ: "issue", title: b.titleOf(issue)}
		if action == "created" {
			if a := issue.at("assignee"); a.truthy() {
				m.assignee = bbUser(a)
			}
			m.message = issue.at("content").at("raw").str()
		}
		return pullRequestMessage(m)
	}
}

func bbPR(action string) func(bb) string {
	return func(b bb) string {
		pr := b.p.at("pullrequest")
		m := prMessage{user: b.actor(), action: action, url: bbHTML(pr), number: pr.at("id").integer(), title: b.titleOf(pr)}
		if action == "merged" {
			m.target, m.base = pr.at("source").at("branch").at("name").str(), pr.at("destination").at("branch").at("name").str()
		}
		return pullRequestMessage(m)
	}
}

func bbPRCreatedOrUpdated(action string) func(bb) string {
	return func(b bb) string {
		pr := b.p.at("pullrequest")
		m := prMessage{user: b.actor(), action: action, url: bbHTML(pr), number: pr.at("id").integer(),
			message: pr.at("description").str(), title: b.titleOf(pr)}
		if reviewers := pr.at("reviewers"); reviewers.truthy() {
			if l := reviewers.list(); len(l) > 0 {
				m.assignee = bbUser(l[0])
			}
		}
		if action == "created" {
			m.target, m.base = pr.at("source").at("branch").at("name").str(), pr.at("destination").at("branch").at("name").str()
		}
		return pullRequestMessage(m)
	}
}

func bbPRComment(b bb, action string) string {
	pr := b.p.at("pullrequest")
	return pullRequestMessage(prMessage{user: b.actor(), action: action + " on", url: bbHTML(pr), number: pr.at("id").integer(),
		message: b.p.at("comment").at("content").at("raw").str(), title: b.titleOf(pr)})
}

func bbRepoUpdated(b bb) string {
	var body strings.Builder
	repo, actor := b.p.at("repository").at("name").str(), b.actor()
	for _, change := range []string{"website", "name", "links", "language", "full_name", "description"} {
		c := b.p.at("changes").at(change)
		n, o := c.at("new"), c.at("old")
		label := strings.ReplaceAll(change, "_", " ")
		if !n.truthy() {
			continue
		}
		msg := fmt.Sprintf("%s changed the %s of the **%s** repo to **%s**", actor, label, repo, n.text())
		if o.truthy() {
			msg = fmt.Sprintf("%s changed the %s of the **%s** repo from **%s** to **%s**", actor, label, repo, o.text(), n.text())
		}
		if !endsWithPunctuation(n.text()) {
			msg += "."
		}
		body.WriteString(msg + "\n")
	}
	return body.String()
}
