package integrations

import (
	"fmt"
	"regexp"
	"strings"
)

// gitlabIntegration is GitLab (zerver/webhooks/gitlab): the X-Gitlab-Event header, refined
// by the object's action or noteable type, picks a formatter of gitlabFormatters. With a
// topic in the URL, messages start with a link to the project.
var gitlabIntegration = &Integration{
	Name: "gitlab", DisplayName: "GitLab", ClientName: "GitLab",
	EventHeader: "X-Gitlab-Event",
	URLOptions: []URLOption{branchesOption,
		{Key: "use_merge_request_title", Label: "Include merge request titles in topics", Validator: "check_bool"}},
	format: formatGitLab,
}

func init() { gitlabIntegration.AllEventTypes = sortedKeys(gitlabFormatters) }

// gl is what a GitLab formatter reads.
type gl struct {
	p            val
	includeTitle bool
}

func (g gl) attrs() val        { return g.p.at("object_attributes") }
func (g gl) issueUser() string { return g.p.at("user").at("name").str() }
func (g gl) branch() string    { return strings.ReplaceAll(g.p.at("ref").str(), "refs/heads/", "") }
func (g gl) titleOf(v val) *string {
	if !g.includeTitle {
		return nil
	}
	t := v.at("title").str()
	return &t
}

func (g gl) repoName() string {
	if g.p.has("project") {
		return g.p.at("project").at("name").str()
	}
	return g.p.at("repository").at("name").str()
}

func (g gl) homepage() string {
	if g.p.has("project") {
		return g.p.at("project").at("web_url").str()
	}
	return g.p.at("repository").at("homepage").str()
}

// assignees are the names of the object's assignees (Zulip's get_assignees).
func (g gl) assignees() []string {
	list := g.p.get("assignees")
	var vals []val
	switch {
	case list.truthy():
		vals = list.list()
	case g.p.get("assignee").truthy():
		vals = []val{g.p.get("assignee")}
	}
	names := make([]string, len(vals))
	for i, a := range vals {
		names[i] = a.at("name").str()
	}
	return names
}

var gitlabFormatters = map[string]func(gl) string{
	"Push Hook":     glPush,
	"Tag Push Hook": glTagPush,
	"Test Hook": func(g gl) string {
		return "Webhook for **" + g.repoName() + "** has been configured successfully! :tada:"
	},
	"Issue Hook open":                glIssueCreated,
	"Issue Hook close":               glIssue("closed"),
	"Issue Hook reopen":              glIssue("reopened"),
	"Issue Hook update":              glIssue("updated"),
	"Confidential Issue Hook open":   glIssueCreated,
	"Confidential Issue Hook close":  glIssue("closed"),
	"Confidential Issue Hook reopen": glIssue("reopened"),
	"Confidential Issue Hook update": glIssue("updated"),
	"Note Hook Commit":               glCommitNote,
	"Note Hook MergeRequest":         glNote("merge_request", "MR"),
	"Note Hook Issue":                glNote("issue", "issue"),
	"Confidential Note Hook Issue":   glNote("issue", "issue"),
	"Note Hook Snippet":              glSnippetNote,
	"Merge Request Hook approved":    glMR("approved"),
	"Merge Request Hook unapproved":  glMR("unapproved"),
	"Merge Request Hook open":        glMROpenOrUpdated("created"),
	"Merge Request Hook update":      glMRUpdated,
	"Merge Request Hook merge":       glMR("merged"),
	"Merge Request Hook close":       glMR("closed"),
	"Merge Request Hook reopen":      glMR("reopened"),
	"Wiki Page Hook create":          glWiki("created"),
	"Wiki Page Hook update":          glWiki("updated"),
	"Job Hook":                       glBuild,
	"Build Hook":                     glBuild,
	"Pipeline Hook":                  glPipeline,
}

func formatGitLab(r *Request) ([]Message, error) {
	root, p, err := decode(r.Body)
	if err != nil {
		return nil, err
	}
	event, err := gitlabEvent(r, root)
	if p.err != nil {
		return nil, p.err
	}
	if err != nil || event == "" {
		return nil, err
	}
	g := gl{p: root, includeTitle: r.Topic != nil}
	body := gitlabFormatters[event](g)
	if r.Topic != nil && *r.Topic != "" {
		body = "[[" + g.repoName() + "](" + g.homepage() + ")] " + body
	}
	useMRTitle := true
	if v, ok := r.param("use_merge_request_title"); ok && v == "false" {
		useMRTitle = false
	}
	return p.done([]Message{{Topic: gitlabTopic(g, event, useMRTitle), Content: body, Event: event}})
}

// gitlabEvent is Zulip's get_event: "" for a push to a branch the branches parameter leaves
// out.
func gitlabEvent(r *Request, p val) (string, error) {
	event, err := r.header("X-Gitlab-Event")
	if err != nil {
		return "", err
	}
	if event == "System Hook" {
		name := p.get("event_name")
		if !name.ok {
			name = p.at("object_kind")
		}
		kind, _, _ := strings.Cut(name.str(), "__")
		event = pyTitle(strings.ReplaceAll(kind, "_", " ")) + " Hook"
	}
	switch event {
	case "Confidential Issue Hook", "Issue Hook", "Merge Request Hook", "Wiki Page Hook":
		action := "open"
		if a := p.at("object_attributes").get("action"); a.ok {
			action = a.str()
		}
		event += " " + action
	case "Confidential Note Hook", "Note Hook":
		event += " " + p.at("object_attributes").at("noteable_type").str()
	case "Push Hook":
		if branchIgnored(r, strings.ReplaceAll(p.at("ref").str(), "refs/heads/", "")) {
			return "", nil
		}
	}
	if _, ok := gitlabFormatters[event]; !ok {
		return "", unsupported(event)
	}
	return event, nil
}

// pyTitle is Python's str.title(): each run of letters starts upper case, the rest lower.
func pyTitle(s string) string {
	var b strings.Builder
	prevLetter := false
	for _, r := range s {
		isLetter := strings.ToUpper(string(r)) != strings.ToLower(string(r))
		switch {
		case isLetter && !prevLetter:
			b.WriteString(strings.ToUpper(string(r)))
		case isLetter:
			b.WriteString(strings.ToLower(string(r)))
		default:
			b.WriteRune(r)
		}
		prevLetter = isLetter
	}
	return b.String()
}

// gitlabTopic is Zulip's get_topic_based_on_event.
func gitlabTopic(g gl, event string, useMRTitle bool) string {
	mrTitle := func(v val) string {
		if useMRTitle {
			return v.at("title").str()
		}
		return ""
	}
	switch {
	case event == "Push Hook":
		return g.repoName() + " / " + g.branch()
	case event == "Job Hook" || event == "Build Hook":
		return g.p.at("repository").at("name").str() + " / " + g.branch()
	case event == "Pipeline Hook":
		return g.repoName() + " / " + strings.ReplaceAll(g.attrs().at("ref").str(), "refs/heads/", "")
	case strings.HasPrefix(event, "Merge Request Hook"):
		return topicWithPROrIssue(g.repoName(), "MR", g.attrs().at("iid").integer(), mrTitle(g.attrs()))
	case strings.HasPrefix(event, "Issue Hook") || strings.HasPrefix(event, "Confidential Issue Hook"):
		return topicWithPROrIssue(g.repoName(), "issue", g.attrs().at("iid").integer(), g.attrs().at("title").str())
	case event == "Note Hook Issue" || event == "Confidential Note Hook Issue":
		return topicWithPROrIssue(g.repoName(), "issue", g.p.at("issue").at("iid").integer(), g.p.at("issue").at("title").str())
	case event == "Note Hook MergeRequest":
		mr := g.p.at("merge_request")
		return topicWithPROrIssue(g.repoName(), "MR", mr.at("iid").integer(), mrTitle(mr))
	case event == "Note Hook Snippet":
		s := g.p.at("snippet")
		return topicWithPROrIssue(g.repoName(), "snippet", s.at("id").integer(), s.at("title").str())
	}
	return g.repoName()
}

func glPush(g gl) string {
	if after := g.p.get("after"); after.truthy() && after.str() == "0000000000000000000000000000000000000000" {
		return g.p.at("user_name").str() + " deleted branch " + g.branch() + "."
	}
	compare := fmt.Sprintf("%s/-/compare/%s...%s", g.homepage(), g.p.at("before").str(), g.p.at("after").str())
	var commits []gitCommit
	for _, c := range g.p.at("commits").list() {
		commits = append(commits, gitCommit{name: c.at("author").at("name").str(), sha: c.at("id").str(),
			message: c.at("message").str(), url: c.at("url").str()})
	}
	return pushCommitsMessage(g.p.at("user_name").str(), compare, g.branch(), commits, false, false, false)
}

func glTagPush(g gl) string {
	action := "removed"
	if g.p.get("checkout_sha").truthy() {
		action = "pushed"
	}
	return pushTagMessage(g.p.at("user_name").str(), strings.ReplaceAll(g.p.at("ref").str(), "refs/tags/", ""), "", action)
}

// hiddenComment is an HTML comment, which GitLab hides in descriptions.
var hiddenComment = regexp.MustCompile(`(?s)<!--.*?-->`)

func glIssueCreated(g gl) string {
	a := g.attrs()
	m := prMessage{user: g.issueUser(), action: "created", url: a.at("url").str(), number: a.at("iid").integer(),
		typ: "issue", assignees: g.assignees(), title: g.titleOf(a)}
	if d := a.get("description"); d.truthy() {
		m.message = strings.TrimRight(hiddenComment.ReplaceAllString(d.str(), ""), pyWhitespace)
	}
	return pullRequestMessage(m)
}

func glIssue(action string) func(gl) string {
	return func(g gl) string {
		a := g.attrs()
		return pullRequestMessage(prMessage{user: g.issueUser(), action: action, url: a.at("url").str(),
			number: a.at("iid").integer(), typ: "issue", title: g.titleOf(a)})
	}
}

func glMRUpdated(g gl) string {
	if g.attrs().get("oldrev").truthy() {
		return glMR("added commit(s) to")(g)
	}
	return glMROpenOrUpdated("updated")(g)
}

func glMR(action string) func(gl) string {
	return func(g gl) string {
		a := g.attrs()
		m := prMessage{user: g.issueUser(), action: action, url: a.at("url").str(), number: a.at("iid").integer(), typ: "MR", title: g.titleOf(a)}
		if action == "merged" {
			m.target, m.base = a.at("source_branch").str(), a.at("target_branch").str()
		}
		return pullRequestMessage(m)
	}
}

func glMROpenOrUpdated(action string) func(gl) string {
	return func(g gl) string {
		a := g.attrs()
		m := prMessage{user: g.issueUser(), action: action, url: a.at("url").str(), number: a.at("iid").integer(), typ: "MR",
			message: a.at("description").optStr(), assignees: g.assignees(), title: g.titleOf(a)}
		if action == "created" {
			m.target, m.base = a.at("source_branch").str(), a.at("target_branch").str()
		}
		return pullRequestMessage(m)
	}
}

func glCommitNote(g gl) string {
	c := g.attrs()
	return commitsCommentMessage(g.issueUser(), "[commented]("+c.at("url").str()+")", g.p.at("commit").at("url").str(),
		g.p.at("commit").at("id").str(), c.at("note").str())
}

// glNote formats a comment on the object key (an issue or a merge request).
func glNote(key, typ string) func(gl) string {
	return func(g gl) string {
		c, obj := g.attrs(), g.p.at(key)
		return pullRequestMessage(prMessage{user: g.issueUser(), action: "[commented](" + c.at("url").str() + ") on",
			url: obj.at("url").str(), number: obj.at("iid").integer(), message: c.at("note").str(), typ: typ, title: g.titleOf(obj)})
	}
}

func glSnippetNote(g gl) string {
	c, s := g.attrs(), g.p.at("snippet")
	url := g.p.at("project").at("web_url").str() + "/-/snippets/" + s.at("id").integer()
	if s.has("url") {
		url = s.get("url").str()
	}
	return pullRequestMessage(prMessage{user: g.issueUser(), action: "[commented](" + c.at("url").str() + ") on",
		url: url, number: s.at("id").integer(), message: c.at("note").str(), typ: "snippet", title: g.titleOf(s)})
}

func glWiki(action string) func(gl) string {
	return func(g gl) string {
		return fmt.Sprintf("%s %s [wiki page \"%s\"](%s).", g.issueUser(), action, g.attrs().at("title").str(), g.attrs().at("url").str())
	}
}

// gitlabStatus words a build's or a pipeline's status.
func gitlabStatus(status, created string) string {
	switch status {
	case created:
		return "was created"
	case "running":
		return "started"
	}
	return "changed status to " + status
}

func glBuild(g gl) string {
	return fmt.Sprintf("Build %s from %s stage %s.", g.p.at("build_name").str(), g.p.at("build_stage").str(),
		gitlabStatus(g.p.at("build_status").str(), "created"))
}

func glPipeline(g gl) string {
	a := g.attrs()
	home := g.homepage()
	id := a.at("id").integer()
	var builds strings.Builder
	for _, b := range g.p.at("builds").list() {
		url := home + "/-/jobs/" + b.at("id").integer()
		fmt.Fprintf(&builds, "* [%s](%s) - %s\n", b.at("name").str(), url, b.at("status").str())
		if name := b.get("artifacts_file").get("filename"); name.truthy() {
			fmt.Fprintf(&builds, "  * built artifact: *%s* [[Browse](%s/artifacts/browse)|[Download](%s/artifacts/download)]\n", name.str(), url, url)
		}
	}
	list := builds.String()
	if list != "" {
		list = list[:len(list)-1]
	}
	return fmt.Sprintf("[Pipeline (%s)](%s/-/pipelines/%s) %s with build(s):\n%s.", id, home, id,
		gitlabStatus(a.at("status").str(), "pending"), list)
}
