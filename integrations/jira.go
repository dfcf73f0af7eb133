package integrations

import (
	"regexp"
	"slices"
	"strings"
)

// jiraIntegration is Jira (zerver/webhooks/jira): issues created, updated (comments,
// changelogs, transitions) and deleted, and the newer comment events. Assignees are named
// after the organization's user with their email address, mentions after the user whose full
// name or address matches (Request.People).
var jiraIntegration = &Integration{
	Name: "jira", DisplayName: "Jira", ClientName: "Jira",
	AllEventTypes: []string{"jira:issue_created", "jira:issue_deleted", "jira:issue_updated", "comment_created", "comment_updated", "comment_deleted"},
	unquote:       true,
	format:        formatJira,
}

var jiraIgnored = []string{"attachment_created", "issuelink_created", "issuelink_deleted", "jira:version_released",
	"jira:worklog_updated", "sprint_closed", "sprint_started", "worklog_created", "worklog_updated"}

// jira is what a Jira formatter reads.
type jira struct {
	p      val
	people func() []Person
}

var jiraFormatters = map[string]func(jira) string{
	"jira:issue_created": jiraCreated,
	"jira:issue_deleted": jiraDeleted,
	"jira:issue_updated": jiraUpdated,
	"comment_created":    jiraComment("commented on issue", false),
	"comment_updated":    jiraComment("updated their comment on issue", false),
	"comment_deleted":    jiraComment("deleted their comment on issue", true),
}

func formatJira(r *Request) ([]Message, error) {
	root, p, err := decode(r.Body)
	if err != nil {
		return nil, err
	}
	event := ""
	switch e := root.get("webhookEvent"); {
	case e.ok && e.v != nil:
		event = e.str()
	case root.get("transition").truthy():
		event = "jira:issue_updated"
	}
	if p.err != nil {
		return nil, p.err
	}
	switch {
	case slices.Contains(jiraIgnored, event):
		return nil, nil
	case event == "":
		return nil, &AnomalousPayloadError{Detail: "no webhookEvent"}
	}
	f, ok := jiraFormatters[event]
	if !ok {
		return nil, unsupported(event)
	}
	j := jira{p: root, people: r.People}
	body := f(j)
	return p.done([]Message{{Topic: j.issueID() + ": " + j.issueTitle(), Content: body, Event: event}})
}

// in is Zulip's get_in: the string at a path, or def when the path is not there.
func (j jira) in(def string, keys ...string) string {
	v := j.p
	for _, k := range keys {
		v = v.get(k)
		if !v.ok {
			return def
		}
	}
	return v.str()
}

func (j jira) issueID() string {
	if !j.p.has("issue") {
		parts := strings.Split(j.p.at("comment").at("self").str(), "/")
		if len(parts) < 3 {
			j.p.get("comment").fail("has no issue in its URL")
			return ""
		}
		return parts[len(parts)-3]
	}
	return j.in("", "issue", "key")
}

func (j jira) issueTitle() string {
	if !j.p.has("issue") {
		return "Upgrade Jira to get the issue title here."
	}
	return j.in("", "issue", "fields", "summary")
}

// jiraRESTBase finds the site of an issue in its REST URL.
var jiraRESTBase = regexp.MustCompile(`^(.*)/rest/api/.*`)

// issueString links the issue ("ID: title" with the title).
func (j jira) issueString(withTitle bool) string {
	id := j.issueID()
	text := id
	if withTitle {
		text = id + ": " + j.issueTitle()
	}
	if m := jiraRESTBase.FindStringSubmatch(j.in("", "issue", "self")); m != nil {
		return "[" + text + "](" + m[1] + "/browse/" + id + ")"
	}
	return text
}

// person is the full name of the user with that email address (else the address).
func (j jira) person(email string) string {
	if j.people != nil {
		for _, u := range j.people() {
			if strings.EqualFold(u.Email, email) {
				return u.FullName
			}
		}
	}
	return email
}

func (j jira) author() string { return j.in("", "user", "displayName") }

func jiraCreated(j jira) string {
	return j.author() + " created " + j.issueString(true) + ":\n\n* **Priority**: " + j.in("", "issue", "fields", "priority", "name") +
		"\n* **Assignee**: " + j.in("no one", "issue", "fields", "assignee", "displayName")
}

func jiraDeleted(j jira) string {
	msg := j.author() + " deleted " + j.issueString(true)
	if t := j.issueTitle(); t == "" || !endsWithPunctuation(t) {
		msg += "."
	}
	return msg
}

func jiraComment(verb string, struck bool) func(jira) string {
	return func(j jira) string {
		c := j.p.at("comment")
		body := strings.ReplaceAll(c.at("body").str(), "\\!", "!")
		if struck {
			body = "~~" + body + "~~"
		}
		return c.at("author").at("displayName").str() + " " + verb + `: *"` + j.issueTitle() + `"*` + "\n``` quote\n" + body + "\n```\n"
	}
}

// jiraSubEvent is Zulip's get_sub_event_for_update_issue.
func (j jira) subEvent() string {
	sub := ""
	if s := j.p.get("issue_event_type_name"); s.ok {
		sub = s.str()
	}
	if sub == "" {
		switch {
		case j.p.get("comment").truthy():
			return "issue_commented"
		case j.p.get("transition").truthy():
			return "issue_transited"
		}
	}
	return sub
}

func jiraUpdated(j jira) string {
	issue := j.issueString(true)
	mention := ""
	if email := j.in("", "issue", "fields", "assignee", "emailAddress"); email != "" {
		mention = "**" + j.person(email) + "**"
	}
	blurb := ""
	if mention != "" {
		blurb = " (assigned to " + mention + ")"
	}
	sub := j.subEvent()
	if strings.Contains(sub, "comment") {
		verb := "deleted a comment from"
		switch sub {
		case "issue_commented":
			verb = "commented on"
		case "issue_comment_edited":
			verb = "edited a comment on"
		}
		author := j.author()
		if j.p.get("webhookEvent").optStr() == "comment_created" {
			author = j.p.at("comment").at("author").at("displayName").str()
		}
		content := author + " " + verb + " " + issue + blurb
		if comment := j.in("", "comment", "body"); comment != "" {
			return content + ":\n\n``` quote\n" + jiraMarkup(comment, j) + "\n```"
		}
		return content + "."
	}
	content := j.author() + " updated " + issue + blurb + ":\n\n"
	if changelog := j.p.get("changelog"); changelog.truthy() {
		for _, item := range changelog.get("items").list() {
			field := item.get("field")
			target := "**" + item.get("toString").text() + "**"
			if field.optStr() == "assignee" && mention != "" {
				target = mention
			}
			content += jiraChange(field.text(), item.get("fromString"), target)
		}
	} else if sub == "issue_transited" {
		content += jiraChange("status", j.p.get("transition").get("from_status"), "**"+j.in("", "transition", "to_status")+"**")
	}
	return content
}

// jiraChange is Zulip's add_change_info.
func jiraChange(field string, from val, to string) string {
	s := "* Changed " + field
	if from.truthy() {
		s += " from **" + from.str() + "**"
	}
	return s + " to " + to + "\n"
}

// The Jira markup that jiraMarkup turns into Markdown.
var (
	jiraBold      = regexp.MustCompile(`\*([^*]+)\*`)
	jiraMono      = regexp.MustCompile(`\{\{([^*]+?)\}\}`)
	jiraBQ        = regexp.MustCompile(`bq\. (.*)`)
	jiraQuote     = regexp.MustCompile(`(?s)\{quote\}(.*?)\{quote\}`)
	jiraNoformat  = regexp.MustCompile(`(?s)\{noformat\}(.*?)\{noformat\}`)
	jiraCode      = regexp.MustCompile(`(?s)\{code[^\n]*\}(.*?)\{code\}`)
	jiraBareLink  = regexp.MustCompile(`\[([^|~]+?)\]`)
	jiraTitleLink = regexp.MustCompile(`\[(?:([^|~]+)\|)([^\]]*)\]`)
	jiraMention   = regexp.MustCompile(`\[~(.*?)\]`)
)

// jiraMarkup is Zulip's convert_jira_markup.
func jiraMarkup(s string, j jira) string {
	s = jiraBold.ReplaceAllString(s, "**${1}**")
	s = jiraMono.ReplaceAllString(s, "`${1}`")
	s = jiraBQ.ReplaceAllString(s, "> ${1}")
	s = jiraQuote.ReplaceAllString(s, "~~~ quote\n${1}\n~~~")
	s = jiraNoformat.ReplaceAllString(s, "~~~\n${1}\n~~~")
	s = jiraCode.ReplaceAllString(s, "~~~\n${1}\n~~~")
	s = jiraBareLink.ReplaceAllString(s, "[${1}](${1})")
	s = jiraTitleLink.ReplaceAllString(s, "[${1}](${2})")
	for _, m := range jiraMention.FindAllStringSubmatch(s, -1) {
		name := m[1]
		if u, ok := j.guess(name); ok {
			name = u
		}
		s = strings.ReplaceAll(s, "[~"+m[1]+"]", "**"+name+"**")
	}
	return s
}

// guess is Zulip's guess_zulip_user_from_jira: the first active user whose full name is the
// Jira name, or whose address starts with it.
func (j jira) guess(name string) (string, bool) {
	if j.people == nil {
		return "", false
	}
	for _, u := range j.people() {
		if u.Active && (strings.EqualFold(u.FullName, name) || strings.HasPrefix(strings.ToLower(u.Email), strings.ToLower(name))) {
			return u.FullName, true
		}
	}
	return "", false
}
