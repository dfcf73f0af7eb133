package integrations

import (
	"strings"
)

// alertmanagerIntegration is Prometheus Alertmanager (zerver/webhooks/alertmanager): one
// message per topic and status, the topic being the name field of each alert (the name
// parameter, default instance) and each line its description (the desc parameter, default
// alertname), found in its labels or else its annotations.
var alertmanagerIntegration = &Integration{
	Name: "alertmanager", DisplayName: "Prometheus Alertmanager", ClientName: "Alertmanager",
	URLOptions: []URLOption{
		{Key: "name", Label: "Label or annotation naming the topic (default: instance)", Validator: "check_string"},
		{Key: "desc", Label: "Label or annotation describing the alert (default: alertname)", Validator: "check_string"},
	},
	format: formatAlertmanager,
}

func formatAlertmanager(r *Request) ([]Message, error) {
	root, p, err := decode(r.Body)
	if err != nil {
		return nil, err
	}
	nameField, ok := r.param("name")
	if !ok {
		nameField = "instance"
	}
	descField, ok := r.param("desc")
	if !ok {
		descField = "alertname"
	}
	type lines struct{ firing, resolved []string }
	var order []string
	byTopic := map[string]*lines{}
	for _, alert := range root.at("alerts").list() {
		labels, annotations := alert.get("labels"), alert.get("annotations")
		pick := func(field, def string) string {
			if v := labels.get(field); v.ok {
				return v.str()
			}
			if v := annotations.get(field); v.ok {
				return v.str()
			}
			return def
		}
		name := pick(nameField, "(unknown)")
		line := pick(descField, "<missing field: "+descField+">")
		if u := alert.get("generatorURL"); u.ok {
			line += " ([source](" + strings.ReplaceAll(u.str(), "tab=1", "tab=0") + "))"
		}
		l := byTopic[name]
		if l == nil {
			l = &lines{}
			byTopic[name] = l
			order = append(order, name)
		}
		switch status := alert.at("status").str(); status {
		case "firing":
			l.firing = append(l.firing, line)
		case "resolved":
			l.resolved = append(l.resolved, line)
		default:
			alert.get("status").fail("is not firing or resolved")
		}
	}
	var msgs []Message
	for _, topic := range order {
		l := byTopic[topic]
		for _, s := range []struct {
			lines       []string
			icon, title string
		}{{l.firing, ":alert:", "FIRING"}, {l.resolved, ":squared_ok:", "Resolved"}} {
			switch len(s.lines) {
			case 0:
				continue
			case 1:
				msgs = append(msgs, Message{Topic: topic, Content: s.icon + " **" + s.title + "** " + s.lines[0]})
			default:
				msgs = append(msgs, Message{Topic: topic, Content: s.icon + " **" + s.title + "**\n* " + strings.Join(s.lines, "\n* ")})
			}
		}
	}
	return p.done(msgs)
}
