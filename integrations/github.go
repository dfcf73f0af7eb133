package integrations

import (
	"fmt"
	"slices"
	"strings"
)

// githubIntegration is GitHub (zerver/webhooks/github): the event is the X-GitHub-Event
// header, refined by the payload's action into Zulip's event names (githubEvent), each with
// its formatter (githubFormatters) and topic (githubTopic).
var githubIntegration = &Integration{
	Name: "github", DisplayName: "GitHub", ClientName: "GitHub",
	EventHeader: "X-GitHub-Event",
	URLOptions:  []URLOption{branchesOption},
	format:      formatGitHub,
}

func init() { githubIntegration.AllEventTypes = sortedKeys(githubFormatters) }

// gh is what a GitHub formatter reads: the payload, and whether the URL sets the topic (the
// messages then name the PR or issue in full).
type gh struct {
	p            val
	includeTitle bool
}

func (g gh) sender() string    { return g.p.at("sender").at("login").str() }
func (g gh) senderURL() string { return g.p.at("sender").at("html_url").str() }
func (g gh) repoName() string  { return g.p.at("repository").at("name").str() }
func (g gh) repoFull() string  { return g.p.at("repository").at("full_name").str() }
func (g gh) repoURL() string   { return g.p.at("repository").at("html_url").str() }
func (g gh) action() string    { return g.p.at("action").str() }
func (g gh) pr() val           { return g.p.at("pull_request") }
func (g gh) issue() val        { return g.p.at("issue") }
func (g gh) titleOf(v val) *string {
	if !g.includeTitle {
		return nil
	}
	t := v.at("title").str()
	return &t
}

// githubFormatters is Zulip's EVENT_FUNCTION_MAPPER: a formatter per Zulip event name.
var githubFormatters = map[string]func(gh) string{
	"commit_comment":                      ghCommitComment,
	"closed_pull_request":                 ghClosedPR,
	"create":                              func(g gh) string { return ghCreateOrDelete(g, "created") },
	"check_run":                           ghCheckRun,
	"delete":                              func(g gh) string { return ghCreateOrDelete(g, "deleted") },
	"deployment":                          func(g gh) string { return g.sender() + " created new deployment." },
	"deployment_status":                   ghDeploymentStatus,
	"fork":                                ghFork,
	"gollum":                              ghWiki,
	"issue_comment":                       ghIssueComment,
	"issue_labeled_or_unlabeled":          ghIssueLabeled,
	"issue_milestoned_or_demilestoned":    ghIssueMilestoned,
	"issues":                              ghIssue,
	"member":                              ghMember,
	"membership":                          ghMembership,
	"opened_or_update_pull_request":       ghOpenedOrUpdatedPR,
	"assigned_or_unassigned_pull_request": ghAssignedPR,
	"page_build":                          ghPageBuild,
	"ping":                                func(g gh) string { return setupMessage("GitHub", g.sender()) },
	"public":                              ghPublic,
	"pull_request_ready_for_review":       ghReadyForReview,
	"pull_request_review":                 ghReview,
	"pull_request_review_comment":         ghReviewComment,
	"pull_request_review_requested":       ghReviewRequested,
	"pull_request_auto_merge":             ghAutoMerge,
	"locked_or_unlocked_pull_request":     ghLocked,
	"push_commits":                        ghPushCommits,
	"push_tags":                           ghPushTags,
	"release":                             ghRelease,
	"repository":                          ghRepository,
	"star":                                ghStar,
	"status":                              ghStatus,
	"team_add":                            ghTeamAdd,
	"watch":                               ghWatch,
}

// Events GitHub sends that Zulip ignores.
var (
	githubIgnoredEvents    = []string{"check_suite", "label", "meta", "milestone", "organization", "project_card", "repository_vulnerability_alert"}
	githubIgnoredPRActions = []string{"approved", "converted_to_draft", "labeled", "review_request_removed", "unlabeled"}
)

func formatGitHub(r *Request) ([]Message, error) {
	header, err := r.header("X-GitHub-Event")
	if err != nil {
		return nil, err
	}
	root, p, err := decode(r.Body)
	if err != nil {
		return nil, err
	}
	event, err := githubEvent(r, header, root)
	if p.err != nil {
		return nil, p.err
	}
	if err != nil || event == "" {
		return nil, err // an ignored event sends nothing
	}
	g := gh{p: root, includeTitle: r.Topic != nil}
	content := githubFormatters[event](g)
	topic := githubTopic(g, event)
	return p.done([]Message{{Topic: topic, Content: content, Event: event}})
}

// githubEvent is Zulip's get_zulip_event_name: "" for an event Zulip ignores.
func githubEvent(r *Request, header string, p val) (string, error) {
	switch header {
	case "pull_request":
		if e := githubPREvent(p.at("action").str()); e != "" || slices.Contains(githubIgnoredPRActions, p.at("action").str()) {
			return e, nil
		}
	case "push":
		ref := p.at("ref").str()
		switch {
		case strings.HasPrefix(ref, "refs/heads/gh-readonly-queue/"):
			return "", nil
		case strings.HasPrefix(ref, "refs/heads/"):
			if branchIgnored(r, strings.TrimPrefix(ref, "refs/heads/")) {
				return "", nil
			}
			return "push_commits", nil
		}
		return "push_tags", nil
	case "check_run":
		if p.at("check_run").at("status").str() != "completed" {
			return "", nil
		}
		return header, nil
	case "issues":
		switch p.at("action").str() {
		case "labeled", "unlabeled":
			return "issue_labeled_or_unlabeled", nil
		case "milestoned", "demilestoned":
			return "issue_milestoned_or_demilestoned", nil
		}
		return "issues", nil
	default:
		if _, ok := githubFormatters[header]; ok {
			return header, nil
		}
		if slices.Contains(githubIgnoredEvents, header) {
			return "", nil
		}
	}
	action := "???"
	if a := p.get("action"); a.ok {
		action = a.str()
	}
	return "", unsupported(header + ":" + action)
}

func githubPREvent(action string) string {
	switch action {
	case "opened", "synchronize", "reopened", "edited":
		return "opened_or_update_pull_request"
	case "assigned", "unassigned":
		return "assigned_or_unassigned_pull_request"
	case "closed":
		return "closed_pull_request"
	case "review_requested":
		return "pull_request_review_requested"
	case "ready_for_review":
		return "pull_request_ready_for_review"
	case "locked", "unlocked":
		return "locked_or_unlocked_pull_request"
	case "auto_merge_enabled", "auto_merge_disabled":
		return "pull_request_auto_merge"
	}
	return ""
}

// githubTopic is Zulip's get_topic_based_on_type.
func githubTopic(g gh, event string) string {
	p := g.p
	switch {
	case strings.Contains(event, "pull_request"):
		return topicWithPROrIssue(g.repoName(), "PR", g.pr().at("number").integer(), g.pr().at("title").str())
	case strings.HasPrefix(event, "issue") && g.issue().has("pull_request"):
		return topicWithPROrIssue(g.repoName(), "PR", g.issue().at("number").integer(), g.issue().at("title").str())
	case strings.HasPrefix(event, "issue"):
		return topicWithPROrIssue(g.repoName(), "issue", g.issue().at("number").integer(), g.issue().at("title").str())
	case strings.HasPrefix(event, "deployment"):
		return g.repoName() + " / Deployment on " + p.at("deployment").at("environment").str()
	case event == "membership":
		return p.at("organization").at("login").str() + " organization"
	case event == "push_commits":
		return topicWithBranch(g.repoName(), strings.TrimPrefix(p.at("ref").str(), "refs/heads/"))
	case event == "gollum":
		return topicWithBranch(g.repoName(), "wiki pages")
	case event == "ping" && !p.get("repository").truthy():
		return p.at("organization").at("login").str()
	case event == "check_run":
		return g.repoName() + " / checks"
	}
	return g.repoName()
}

func ghOpenedOrUpdatedPR(g gh) string {
	pr, action := g.pr(), g.action()
	if action == "synchronize" {
		action = "updated"
	}
	m := prMessage{user: g.sender(), action: action, url: pr.at("html_url").str(), number: pr.at("number").integer(), title: g.titleOf(pr)}
	if a := pr.get("assignee"); a.truthy() {
		m.assignee = a.at("login").str()
	}
	if g.p.get("changes").has("body") || action == "opened" {
		m.message = pr.at("body").optStr()
	}
	if action == "opened" || action == "merged" {
		m.target, m.base = pr.at("head").at("label").str(), pr.at("base").at("label").str()
	}
	return pullRequestMessage(m)
}

func ghAssignedPR(g gh) string {
	pr := g.pr()
	m := prMessage{user: g.sender(), action: g.action(), url: pr.at("html_url").str(), number: pr.at("number").integer(), title: g.titleOf(pr)}
	if a := pr.get("assignee"); a.truthy() {
		m.assigneeUpdated = a.at("login").str()
	}
	return pullRequestMessage(m)
}

func ghClosedPR(g gh) string {
	pr := g.pr()
	action := "closed without merge"
	if pr.at("merged").v == true {
		action = "merged"
	}
	return pullRequestMessage(prMessage{user: g.sender(), action: action, url: pr.at("html_url").str(), number: pr.at("number").integer(), title: g.titleOf(pr)})
}

func ghMembership(g gh) string {
	action, member := g.action(), g.p.at("member")
	preposition := "to"
	if action == "removed" {
		preposition = "from"
	}
	return fmt.Sprintf("%s %s [%s](%s) %s the %s team.", g.sender(), action, member.at("login").str(),
		member.at("html_url").str(), preposition, g.p.at("team").at("name").str())
}

func ghMember(g gh) string {
	member := g.p.at("member")
	return fmt.Sprintf("%s %s [%s](%s) to [%s](%s).", g.sender(), g.action(), member.at("login").str(),
		member.at("html_url").str(), g.repoName(), g.repoURL())
}

func ghIssue(g gh) string {
	issue, action := g.issue(), g.action()
	m := prMessage{user: g.sender(), action: action, url: issue.at("html_url").str(), number: issue.at("number").integer(), typ: "issue", title: g.titleOf(issue)}
	if action != "assigned" && action != "unassigned" {
		m.message = issue.at("body").optStr()
	}
	if g.p.has("assignee") && (action == "assigned" || action == "unassigned") {
		m.assigneeUpdated = g.p.at("assignee").at("login").str()
	}
	return pullRequestMessage(m)
}

func ghIssueComment(g gh) string {
	issue, comment, action := g.issue(), g.p.at("comment"), g.action()
	if action == "created" {
		action = "[commented]"
	} else {
		action += " a [comment]"
	}
	action += "(" + comment.at("html_url").str() + ") on"
	typ := "issue"
	if issue.has("pull_request") {
		typ = "PR"
	}
	return pullRequestMessage(prMessage{user: g.sender(), action: action, url: issue.at("html_url").str(), number: issue.at("number").integer(),
		message: comment.at("body").str(), typ: typ, title: g.titleOf(issue)})
}

func ghIssueLabeled(g gh) string {
	issue := g.issue()
	action, preposition := "added", "to"
	if g.action() != "labeled" {
		action, preposition = "removed", "from"
	}
	return fmt.Sprintf("[%s](%s) %s the %s label %s [Issue #%s%s](%s).", g.sender(), g.senderURL(), action,
		g.p.at("label").at("name").str(), preposition, issue.at("number").integer(), titleSuffix(g.titleOf(issue)), issue.at("html_url").str())
}

func ghIssueMilestoned(g gh) string {
	issue, milestone := g.issue(), g.p.at("milestone")
	action, preposition := "added", "to"
	if g.action() != "milestoned" {
		action, preposition = "removed", "from"
	}
	return fmt.Sprintf("[%s](%s) %s milestone [%s](%s) %s [issue #%s%s](%s).", g.sender(), g.senderURL(), action,
		milestone.at("title").str(), milestone.at("html_url").str(), preposition, issue.at("number").integer(),
		titleSuffix(g.titleOf(issue)), issue.at("html_url").str())
}

// titleSuffix is " title" when the title is shown.
func titleSuffix(title *string) string {
	if title == nil {
		return ""
	}
	return " " + *title
}

func ghFork(g gh) string {
	forkee := g.p.at("forkee")
	return fmt.Sprintf("%s forked [%s](%s).", g.sender(), forkee.at("name").str(), forkee.at("html_url").str())
}

func ghDeploymentStatus(g gh) string {
	return "Deployment changed status to " + g.p.at("deployment_status").at("state").str() + "."
}

func ghCreateOrDelete(g gh, action string) string {
	return strings.TrimRight(fmt.Sprintf("%s %s %s %s.", g.sender(), action, g.p.at("ref_type").str(), g.p.at("ref").str()), pyWhitespace)
}

func ghCommitComment(g gh) string {
	comment := g.p.at("comment")
	url := comment.at("html_url").str()
	commitURL, _, _ := strings.Cut(url, "#")
	return commitsCommentMessage(g.sender(), "[commented]("+url+")", commitURL, comment.at("commit_id").str(), comment.at("body").str())
}

func ghPushTags(g gh) string {
	action := "removed"
	if g.p.at("created").v == true {
		action = "pushed"
	}
	return pushTagMessage(g.sender(), strings.TrimPrefix(g.p.at("ref").str(), "refs/tags/"), "", action)
}

func ghPushCommits(g gh) string {
	var commits []gitCommit
	for _, c := range g.p.at("commits").list() {
		author := c.at("author")
		name := author.get("username").optStr()
		if !author.get("username").truthy() {
			name = author.at("name").str()
		}
		commits = append(commits, gitCommit{name: name, sha: c.at("id").str(), url: c.at("url").str(), message: c.at("message").str()})
	}
	return pushCommitsMessage(g.sender(), g.p.at("compare").str(), strings.TrimPrefix(g.p.at("ref").str(), "refs/heads/"),
		commits, false, g.p.at("deleted").v == true, g.p.at("forced").v == true)
}

func ghPublic(g gh) string {
	return fmt.Sprintf("%s made the repository [%s](%s) public.", g.sender(), g.repoFull(), g.repoURL())
}

func ghWiki(g gh) string {
	var b strings.Builder
	for _, page := range g.p.at("pages").list() {
		fmt.Fprintf(&b, "* %s [%s](%s)\n", page.at("action").str(), page.at("title").str(), page.at("html_url").str())
	}
	return g.sender() + ":\n" + strings.TrimRight(b.String(), pyWhitespace)
}

func ghWatch(g gh) string {
	return fmt.Sprintf("%s starred the repository [%s](%s).", g.sender(), g.repoFull(), g.repoURL())
}

func ghRepository(g gh) string {
	return fmt.Sprintf("%s %s the repository [%s](%s).", g.sender(), g.action(), g.repoFull(), g.repoURL())
}

func ghTeamAdd(g gh) string {
	return fmt.Sprintf("The repository [%s](%s) was added to team %s.", g.repoFull(), g.repoURL(), g.p.at("team").at("name").str())
}

func ghRelease(g gh) string {
	release := g.p.at("release")
	name := release.at("tag_name").str()
	if release.at("name").truthy() {
		name = release.at("name").str()
	}
	return releaseMessage(g.sender(), g.action(), release.at("tag_name").str(), name, release.at("html_url").str())
}

func ghPageBuild(g gh) string {
	build := g.p.at("build")
	status := build.at("status").str()
	action := map[string]string{
		"null": "has yet to be built", "building": "is being built", "errored": "has failed: {}", "built": "has finished building",
	}[status]
	if action == "" {
		action = "is " + status
	}
	if msg := build.at("error").at("message"); msg.truthy() {
		action = strings.Replace(action, "{}", quoteBlock(msg.str()), 1)
	}
	return fmt.Sprintf("GitHub Pages build, triggered by %s, %s.", build.at("pusher").at("login").str(), action)
}

func ghStatus(g gh) string {
	status := g.p.at("state").str()
	if g.p.at("target_url").truthy() {
		status = "[" + status + "](" + g.p.at("target_url").str() + ")"
	}
	return fmt.Sprintf("[%s](%s) changed its status to %s.", shortSHA(g.p.at("sha").str()), g.p.at("commit").at("html_url").str(), status)
}

func ghLocked(g gh) string {
	pr := g.pr()
	if g.action() == "unlocked" {
		return fmt.Sprintf("%s has unlocked [PR #%s](%s).", g.sender(), pr.at("number").integer(), pr.at("html_url").str())
	}
	reason := "None"
	if pr.at("active_lock_reason").truthy() {
		reason = pr.at("active_lock_reason").str()
	}
	return fmt.Sprintf("%s has locked [PR #%s](%s) as %s and limited conversation to collaborators.", g.sender(),
		pr.at("number").integer(), pr.at("html_url").str(), reason)
}

func ghAutoMerge(g gh) string {
	verb := "enabled"
	if g.action() == "auto_merge_disabled" {
		verb = "disabled"
	}
	return fmt.Sprintf("%s has %s auto merge for [PR #%s](%s).", g.sender(), verb, g.pr().at("number").integer(), g.pr().at("html_url").str())
}

func ghReadyForReview(g gh) string {
	return fmt.Sprintf("**%s** has marked [PR #%s](%s) as ready for review.", g.sender(), g.pr().at("number").integer(), g.pr().at("html_url").str())
}

func ghReview(g gh) string {
	pr := g.pr()
	m := prMessage{user: g.sender(), action: "submitted", url: g.p.at("review").at("html_url").str(), typ: "PR review",
		message: g.p.at("review").at("body").optStr()}
	if g.includeTitle {
		t := fmt.Sprintf("for #%s %s", pr.at("number").integer(), pr.at("title").str())
		m.title = &t
	}
	return pullRequestMessage(m)
}

func ghReviewComment(g gh) string {
	pr, action := g.pr(), g.action()
	m := prMessage{user: g.sender(), action: action, url: g.p.at("comment").at("html_url").str(), typ: "PR review comment"}
	if action == "created" {
		m.message = g.p.at("comment").at("body").str()
	}
	if g.includeTitle {
		t := fmt.Sprintf("on #%s %s", pr.at("number").integer(), pr.at("title").str())
		m.title = &t
	}
	return pullRequestMessage(m)
}

func ghReviewRequested(g gh) string {
	pr := g.pr()
	var reviewers string
	if g.p.has("requested_reviewer") {
		r := g.p.at("requested_reviewer")
		reviewers = "[" + r.at("login").str() + "](" + r.at("html_url").str() + ")"
	} else {
		t := g.p.at("requested_team")
		reviewers = "[" + t.at("name").str() + "](" + t.at("html_url").str() + ")"
	}
	return fmt.Sprintf("**%s** requested %s for a review on [PR #%s%s](%s).", g.sender(), reviewers, pr.at("number").integer(),
		titleSuffix(g.titleOf(pr)), pr.at("html_url").str())
}

func ghCheckRun(g gh) string {
	run := g.p.at("check_run")
	sha := run.at("head_sha").str()
	return fmt.Sprintf("Check [%s](%s) %s (%s). ([%s](%s/commit/%s))", run.at("name").str(), run.at("html_url").str(),
		run.at("status").str(), run.at("conclusion").str(), shortSHA(sha), g.repoURL(), sha)
}

func ghStar(g gh) string {
	action := "unstarred"
	if g.action() == "created" {
		action = "starred"
	}
	return fmt.Sprintf("[%s](%s) %s the repository [%s](%s).", g.sender(), g.senderURL(), action, g.repoFull(), g.repoURL())
}

// sortedKeys lists a formatter table's event names, sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
