package integrations

import "strconv"

// buildbotIntegration is Buildbot (zerver/webhooks/buildbot): a build started (event "new") or
// finished with its result, to the topic of its project ("general" without one).
var buildbotIntegration = &Integration{
	Name: "buildbot", DisplayName: "Buildbot", ClientName: "Buildbot",
	AllEventTypes: []string{"new", "finished"},
	format:        formatBuildbot,
}

// buildbotResults are Buildbot's result codes (docs.buildbot.net's developer/results).
var buildbotResults = []string{"success", "warnings", "failure", "skipped", "exception", "retry", "cancelled"}

func formatBuildbot(r *Request) ([]Message, error) {
	root, p, err := decode(r.Body)
	if err != nil {
		return nil, err
	}
	topic := root.at("project").str()
	if topic == "" {
		topic = "general"
	}
	status, hasStatus := "", false
	if results := root.get("results"); results.ok {
		// Python's index of a tuple: from the end when negative; past either end Zulip's view
		// fails (a server error there, the payload's error here).
		n, err := strconv.Atoi(results.integer())
		if n < 0 {
			n += len(buildbotResults)
		}
		if err == nil && n >= 0 && n < len(buildbotResults) {
			status, hasStatus = buildbotResults[n], true
		} else if err == nil {
			results.fail("is not a Buildbot result")
		}
	}
	event := root.at("event").str()
	build := "Build [#" + root.at("buildid").integer() + "](" + root.at("url").str() + ")"
	name := root.at("buildername").str()
	var body string
	switch {
	case event == "new":
		body = build + " for **" + name + "** started."
	case event == "finished" && hasStatus:
		body = build + " (result: " + status + ") for **" + name + "** finished."
	default:
		// Zulip's view has no message for other events, nor for a finished build without its
		// result (it fails then).
		root.get("event").fail("is not new, or finished with results")
	}
	return p.done([]Message{{Topic: topic, Content: body, Event: event}})
}
