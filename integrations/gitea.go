package integrations

import (
	"strings"
)

// giteaIntegration is Gitea (zerver/webhooks/gitea), which reads Gogs's payloads with
// Zulip's Gogs code (zerver/webhooks/gogs) but for its pull requests. Gogs itself is not served
// yet: its pull requests differ, and no fixture of its tests it here.
var giteaIntegration = &Integration{
	Name: "gitea", DisplayName: "Gitea", ClientName: "Gitea",
	EventHeader:   "X-Gitea-Event",
	AllEventTypes: gogsEventTypes,
	URLOptions:    []URLOption{branchesOption},
	format:        func(r *Request) ([]Message, error) { return formatGogs(r, "Gitea", "X-Gitea-Event", giteaPullRequest) },
}

var gogsEventTypes = []string{"issue_comment", "issues", "create", "pull_request", "push", "release"}

// formatGogs is Zulip's gogs_webhook_main: the event header picks one formatter.
func formatGogs(r *Request, name, header string, pullRequest func(val, bool) string) ([]Message, error) {
	root, p, err := decode(r.Body)
	if err != nil {
		return nil, err
	}
	repo := root.at("repository").at("name").str()
	event, err := r.header(header)
	if err != nil {
		return nil, err
	}
	includeTitle := r.Topic != nil
	var topic, body string
	switch event {
	case "push":
		branch := strings.ReplaceAll(root.at("ref").str(), "refs/heads/", "")
		if branches, ok := r.param("branches"); ok && !containsString(strings.Split(branches, ","), branch) {
			return p.done(nil)
		}
		body, topic = gogsPush(root, branch), topicWithBranch(repo, branch)
	case "create":
		ref := root.at("ref").str()
		body = root.at("sender").at("username").str() + " created [" + ref + "](" + root.at("repository").at("html_url").str() + "/src/" + ref + ") branch."
		topic = topicWithBranch(repo, ref)
	case "pull_request":
		pr := root.at("pull_request")
		body = pullRequest(root, includeTitle)
		topic = topicWithPROrIssue(repo, "PR", pr.at("id").integer(), pr.at("title").str())
	case "issues", "issue_comment":
		issue := root.at("issue")
		body = gogsIssue(root, event, includeTitle)
		topic = topicWithPROrIssue(repo, "issue", issue.at("number").integer(), issue.at("title").str())
	case "release":
		release := root.at("release")
		body = releaseMessage(release.at("author").at("username").str(), root.at("action").str(), release.at("tag_name").str(),
			release.at("name").str(), root.at("repository").at("html_url").str())
		topic = repo + " / " + release.at("tag_name").str() + " " + release.at("name").str()
	default:
		if p.err != nil {
			return nil, p.err
		}
		return nil, unsupported(event)
	}
	return p.done([]Message{{Topic: topic, Content: body, Event: event}})
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func gogsPush(root val, branch string) string {
	var commits []gitCommit
	for _, c := range root.at("commits").list() {
		name := c.at("author").at("username").str()
		if name == "" {
			fields := strings.Fields(c.at("author").at("name").str())
			if len(fields) > 0 {
				name = fields[0]
			} else {
				c.get("author").fail("has no name")
			}
		}
		commits = append(commits, gitCommit{name: name, sha: c.at("id").str(), url: c.at("url").str(), message: c.at("message").str()})
	}
	return pushCommitsMessage(root.at("sender").at("username").str(), root.at("compare_url").str(), branch, commits, false, false, false)
}

// gogsPRHead is the shared start of both pull request formatters: who acted, how.
func gogsPRHead(root val) (user, action string) {
	pr := root.at("pull_request")
	if pr.at("merged").v == true {
		return pr.at("merged_by").at("username").str(), "merged"
	}
	return pr.at("user").at("username").str(), root.at("action").str()
}

func giteaPullRequest(root val, includeTitle bool) string {
	pr := root.at("pull_request")
	user, action := gogsPRHead(root)
	m := prMessage{user: user, action: action, url: pr.at("html_url").str(), number: pr.at("number").integer()}
	if action != "edited" {
		if pr.has("head") {
			m.target = pr.at("head").at("ref").str()
		}
		if pr.has("base") {
			m.base = pr.at("base").at("ref").str()
		}
	}
	if includeTitle {
		t := pr.at("title").str()
		m.title = &t
	}
	if a := pr.at("assignee"); a.truthy() {
		m.assignee = a.at("login").str()
	}
	return pullRequestMessage(m)
}

// gogsIssue formats an issues or issue_comment event.
func gogsIssue(root val, event string, includeTitle bool) string {
	issue := root.at("issue")
	number := issue.at("number").integer()
	m := prMessage{user: root.at("sender").at("login").str(), action: root.at("action").str(),
		url: root.at("repository").at("html_url").str() + "/issues/" + number, number: number, typ: "issue"}
	if includeTitle {
		t := issue.at("title").str()
		m.title = &t
	}
	if event == "issues" {
		m.message = issue.at("body").str()
		if a := issue.at("assignee"); a.truthy() {
			m.assignee = a.at("login").str()
		}
		return pullRequestMessage(m)
	}
	comment := root.at("comment")
	if m.action == "created" {
		m.action = "[commented]"
	} else {
		m.action += " a [comment]"
	}
	m.action += "(" + comment.at("html_url").str() + ") on"
	m.message = comment.at("body").str()
	return pullRequestMessage(m)
}
