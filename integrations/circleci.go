package integrations

import (
	"net/url"
	"strings"
)

// circleCIIntegration is CircleCI (zerver/webhooks/circleci): its webhooks' job-completed and
// workflow-completed events (and the ping a new webhook sends), to the project's topic, with
// the commit that triggered the pipeline on GitHub, Bitbucket or GitLab.
var circleCIIntegration = &Integration{
	Name: "circleci", DisplayName: "CircleCI", ClientName: "CircleCI",
	AllEventTypes: []string{"ping", "job-completed", "workflow-completed"},
	format:        formatCircleCI,
}

// circleCIStatus is Zulip's outcome_to_formatted_status_map; an outcome it lacks is Python's
// None.
var circleCIStatus = map[string]string{
	"success":      "has succeeded",
	"failed":       "has failed",
	"canceled":     "was canceled",
	"unauthorized": "was unauthorized",
	"error":        "had an error",
}

func formatCircleCI(r *Request) ([]Message, error) {
	root, p, err := decode(r.Body)
	if err != nil {
		return nil, err
	}
	typ := root.at("type").str()
	if typ == "ping" {
		// A ping has no pipeline: Zulip answers it apart.
		return p.done([]Message{{Topic: "Test event", Content: "Webhook '" + root.at("webhook").at("name").str() + "' test event successful.", Event: typ}})
	}
	topic := root.at("project").at("name").str()
	body := circleCIBody(root, typ)
	pipeline := root.at("pipeline")
	if p.err == nil && pipeline.has("trigger_parameters") && pipeline.at("trigger").at("type").v != "gitlab" {
		return nil, &BadRequestError{Msg: "Projects using this version control system provider aren't supported"}
	}
	return p.done([]Message{{Topic: topic, Content: body, Event: typ}})
}

// circleCIBody is Zulip's get_body: the job's or the workflow's outcome, then the commit.
func circleCIBody(root val, typ string) string {
	number := root.at("pipeline").at("number").integer()
	commit := circleCICommit(root.at("pipeline"))
	switch typ {
	case "job-completed":
		job := root.at("job")
		return "Job `" + job.at("name").str() + "` within Pipeline #" + number + " " + circleCIOutcome(job) + ".\n" + commit
	case "workflow-completed":
		wf := root.at("workflow")
		return "Workflow [`" + wf.at("name").str() + "`](" + wf.at("url").urlStr() + ") within Pipeline #" + number + " " +
			circleCIOutcome(wf) + ".\n" + commit
	}
	root.get("type").fail("is not job-completed or workflow-completed")
	return ""
}

func circleCIOutcome(v val) string {
	if s, ok := circleCIStatus[v.at("status").str()]; ok {
		return s
	}
	return "None"
}

// circleCICommit is Zulip's get_commit_details: the commit of a GitHub or Bitbucket pipeline
// (vcs), or of a GitLab one (trigger_parameters).
func circleCICommit(pipeline val) string {
	var details, link, author, branch string
	if vcs := pipeline.get("vcs"); vcs.ok {
		revision := vcs.at("revision").str()
		sha := shortSHA(revision)
		repo := vcs.at("target_repository_url").urlStr()
		link = repo + "/commits/" + revision
		if vcs.at("provider_name").v == "github" {
			link = repo + "/commit/" + revision
		}
		branch = vcs.at("branch").strOrNone()
		subject := vcs.at("commit").at("subject").strOrNone()
		if subject == "" {
			// Manually triggered pipelines.
			if branch == "" {
				return "\nTriggered on the latest tag on [" + sha + "](" + link + ").\n"
			}
			return "\nTriggered on `" + branch + "`'s HEAD on [" + sha + "](" + link + ").\n"
		}
		details = sha + ": " + subject
		author = vcs.at("commit").at("author").at("name").str()
	} else {
		gl := pipeline.at("trigger_parameters").at("gitlab")
		checkout := gl.at("checkout_sha").str()
		details = shortSHA(checkout) + ": " + gl.at("commit_title").str()
		author = gl.at("commit_author_name").str()
		link = gl.at("web_url").urlStr() + "/-/commit/" + checkout
		branch = gl.at("branch").str()
	}
	return "\nTriggered on [`" + details + "`](" + link + ") on branch `" + branch + "` by " + author + ".\n"
}

// strOrNone is v as a required string or null ("" for null: Zulip's check_none_or(check_string)).
func (v val) strOrNone() string {
	if v.ok && v.v == nil {
		return ""
	}
	return v.str()
}

// urlStr is v as a required URL (Zulip's check_url, Django's URLValidator: an http, https, ftp
// or ftps URL with a host).
func (v val) urlStr() string {
	s := v.str()
	u, err := url.Parse(s)
	if s != "" && (err != nil || u.Host == "" || !strings.Contains(" http https ftp ftps ", " "+strings.ToLower(u.Scheme)+" ")) {
		v.fail("is not a URL")
	}
	return s
}
