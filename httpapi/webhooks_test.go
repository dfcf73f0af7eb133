package httpapi_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/teamchat/chat/integrations"
)

// webhookBot creates an incoming webhook bot owned by hamlet, subscribed to nothing, and
// returns its email and API key (also in s.keys).
func webhookBot(t *testing.T, s *server) (string, string) {
	t.Helper()
	status, _, body := s.call(t, http.MethodPost, "/api/v1/bots", "hamlet@zulip.com", url.Values{
		"full_name": {"Hook"}, "short_name": {"hook"}, "bot_type": {"2"},
	})
	if status != 200 {
		t.Fatalf("create bot: %d %v", status, body)
	}
	email := "hook-bot@chat.test"
	s.keys[email] = body["api_key"].(string)
	return email, body["api_key"].(string)
}

// postWebhook posts body to an integration's URL with the query q.
func postWebhook(t *testing.T, s *server, integration string, q url.Values, body []byte, header map[string]string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.URL+"/api/v1/external/"+integration+"?"+q.Encode(), bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	status, _, got := do(t, req)
	return status, got
}

// lastMessages returns the raw content, topic and client of hamlet's last n messages.
func lastMessages(t *testing.T, s *server, n int) [][3]string {
	t.Helper()
	status, _, body := s.call(t, http.MethodGet, "/api/v1/messages", "hamlet@zulip.com", url.Values{
		"anchor": {"newest"}, "num_before": {fmt.Sprint(n)}, "num_after": {"0"}, "apply_markdown": {"false"},
	})
	if status != 200 {
		t.Fatalf("get messages: %d %v", status, body)
	}
	var out [][3]string
	for _, m := range body["messages"].([]any) {
		m := m.(map[string]any)
		out = append(out, [3]string{m["subject"].(string), m["content"].(string), m["client"].(string)})
	}
	return out
}

// subscribeHamlet subscribes hamlet to a channel, creating it.
func subscribeHamlet(t *testing.T, s *server, channel string) {
	t.Helper()
	if status, _, body := s.call(t, http.MethodPost, "/api/v1/users/me/subscriptions", "hamlet@zulip.com", url.Values{
		"subscriptions": {`[{"name":"` + channel + `"}]`},
	}); status != 200 {
		t.Fatalf("subscribe: %d %v", status, body)
	}
}

func fixtureBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile("../integrations/testdata/" + path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestIncomingWebhook(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	_, key := webhookBot(t, s)
	subscribeHamlet(t, s, "alerts")
	alert := fixtureBytes(t, "alertmanager/single_alert.json")
	const want = ":squared_ok: **Resolved** CPU core temperature is 34.75C ([source](http://cobalt:9090/graph?g0.expr=avg+by%28host%29+%28sensors_temp_input%7Bfeature%3D~%22core_%5B0-9%5D%2B%22%7D%29+%3E+15&g0.tab=0))"

	t.Run("to a channel by name and by id, with the integration's topic or the URL's", func(t *testing.T) {
		for _, q := range []url.Values{
			{"api_key": {key}, "stream": {"alerts"}, "name": {"topic"}, "desc": {"description"}},
			{"api_key": {key}, "stream": {"1"}, "topic": {"custom"}, "desc": {"description"}},
		} {
			if status, body := postWebhook(t, s, "alertmanager", q, alert, nil); status != 200 || body["result"] != "success" {
				t.Fatalf("%v: %d %v", q, status, body)
			}
		}
		got := lastMessages(t, s, 2)
		wantMsgs := [][3]string{{"andromeda", want, "ZulipAlertmanagerWebhook"}, {"custom", want, "ZulipAlertmanagerWebhook"}}
		if diff := cmp.Diff(wantMsgs, got); diff != "" {
			t.Errorf("messages (-want +got):\n%s", diff)
		}
	})
	t.Run("without a stream, to the bot's owner", func(t *testing.T) {
		q := url.Values{"api_key": {key}, "name": {"topic"}, "desc": {"description"}}
		if status, body := postWebhook(t, s, "alertmanager", q, alert, nil); status != 200 {
			t.Fatalf("%d %v", status, body)
		}
		if got := lastMessages(t, s, 1); got[0][1] != want || got[0][0] != "" {
			t.Errorf("direct message = %v", got)
		}
	})
	t.Run("HTTP Basic credentials", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/v1/external/slack_incoming?stream=alerts", strings.NewReader(`{"text":"*basic*"}`))
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth("hook-bot@chat.test", key)
		if status, _, body := do(t, req); status != 200 {
			t.Fatalf("%d %v", status, body)
		}
		// "(no topic)" is the empty topic, "general chat" to this client.
		if got := lastMessages(t, s, 1); got[0][1] != "**basic**" || got[0][0] != "general chat" {
			t.Errorf("message = %v", got)
		}
	})
	t.Run("refusals store nothing", func(t *testing.T) {
		// A first malformed body tells the bot's owner (once a minute: the refusals below do
		// not).
		postWebhook(t, s, "json", url.Values{"api_key": {key}}, []byte("{"), nil)
		before := lastMessages(t, s, 1)
		if before[0][1] != integrations.InvalidJSONNotice("JSON") || before[0][2] != "Internal" { // from the notification bot
			t.Errorf("notice = %v", before)
		}
		for _, tc := range []struct {
			name, integration string
			q                 url.Values
			body              string
			status            int
			code, msg         string
		}{
			{"malformed JSON", "alertmanager", url.Values{"api_key": {key}, "stream": {"alerts"}}, `{"alerts": [`, 400, "INVALID_JSON", "Malformed JSON"},
			{"not JSON", "json", url.Values{"api_key": {key}}, `hello`, 400, "INVALID_JSON", "Malformed JSON"},
			{"a payload of another service", "alertmanager", url.Values{"api_key": {key}}, `{"text": "hi"}`, 400, "ANOMALOUS_WEBHOOK_PAYLOAD", "Unable to parse request: Did Alertmanager generate this event?"},
			{"no api_key", "alertmanager", url.Values{"stream": {"alerts"}}, string(alert), 400, "REQUEST_VARIABLE_MISSING", "Missing 'api_key' argument"},
			{"a wrong key", "alertmanager", url.Values{"api_key": {"abcdefghijklmnopqrstuvwxyz012345"}}, string(alert), 401, "UNAUTHORIZED", "Invalid API key"},
			{"an unknown integration", "nope", url.Values{"api_key": {key}}, string(alert), 404, "NOT_FOUND", "Not Found"},
			{"bad only_events", "alertmanager", url.Values{"api_key": {key}, "only_events": {"[1"}}, string(alert), 400, "BAD_REQUEST", ""},
		} {
			status, body := postWebhook(t, s, tc.integration, tc.q, []byte(tc.body), nil)
			if tc.code == "BAD_REQUEST" {
				if status != 400 {
					t.Errorf("%s: %d %v", tc.name, status, body)
				}
				continue
			}
			wantErr(t, status, body, tc.status, tc.code, tc.msg)
		}
		// Zulip answers success for a channel that does not exist, and sends nothing.
		if status, body := postWebhook(t, s, "alertmanager", url.Values{"api_key": {key}, "stream": {"nowhere"}}, alert, nil); status != 200 {
			t.Errorf("a channel that does not exist: %d %v", status, body)
		}
		if diff := cmp.Diff(before, lastMessages(t, s, 1)); diff != "" {
			t.Errorf("a refusal sent a message (-before +after):\n%s", diff)
		}
	})
	t.Run("not under /json/", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/json/external/json?api_key="+key, strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		status, _, body := do(t, req)
		wantErr(t, status, body, 404, "NOT_FOUND", "Not Found")
	})
	t.Run("a body past the bound", func(t *testing.T) {
		big := `{"text": "` + strings.Repeat("x", 1<<16) + `"}`
		status, body := postWebhook(t, s, "slack_incoming", url.Values{"api_key": {key}}, []byte(big), nil)
		if status != 413 && status != 400 {
			t.Errorf("%d %v", status, body)
		}
	})
}

// TestIncomingWebhookBotSends: an incoming webhook bot may POST /messages (Zulip's
// allow_incoming_webhooks) and nothing else.
func TestIncomingWebhookBotSends(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	email, _ := webhookBot(t, s)
	status, _, body := s.call(t, http.MethodPost, "/api/v1/messages", email, url.Values{
		"type": {"direct"}, "to": {"hamlet@zulip.com"}, "content": {"from the hook"},
	})
	if status != 200 {
		t.Fatalf("send: %d %v", status, body)
	}
	if got := lastMessages(t, s, 1); got[0][1] != "from the hook" {
		t.Errorf("message = %v", got)
	}
	status, _, body = s.call(t, http.MethodGet, "/api/v1/users/me", email, nil)
	wantErr(t, status, body, 401, "UNAUTHORIZED", "This API is not available to incoming webhook bots.")
}

// TestRegisterIncomingWebhookBots: register's realm_incoming_webhook_bots lists the
// integrations served, with their options.
func TestRegisterIncomingWebhookBots(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	status, _, body := s.call(t, http.MethodPost, "/api/v1/register", "hamlet@zulip.com", url.Values{
		"fetch_event_types": {`["realm_incoming_webhook_bots"]`},
	})
	if status != 200 {
		t.Fatalf("register: %d %v", status, body)
	}
	byName := map[string]map[string]any{}
	for _, b := range body["realm_incoming_webhook_bots"].([]any) {
		b := b.(map[string]any)
		byName[b["name"].(string)] = b
	}
	for _, name := range []string{"alertmanager", "buildbot", "circleci", "json", "slack_incoming"} {
		if byName[name] == nil {
			t.Errorf("%s missing from %v", name, body["realm_incoming_webhook_bots"])
		}
	}
	want := map[string]any{"name": "alertmanager", "display_name": "Prometheus Alertmanager", "all_event_types": nil,
		"config_options": []any{}, "url_options": []any{
			map[string]any{"key": "name", "label": "Label or annotation naming the topic (default: instance)", "validator": "check_string"},
			map[string]any{"key": "desc", "label": "Label or annotation describing the alert (default: alertname)", "validator": "check_string"},
		}}
	if diff := cmp.Diff(want, byName["alertmanager"]); diff != "" {
		t.Errorf("alertmanager (-want +got):\n%s", diff)
	}
}

// TestIncomingWebhookMissingHeader: a request without the integration's event header is
// refused with Zulip's MISSING_HTTP_EVENT_HEADER and its owner told; an unsupported event is
// Zulip's 200 UNSUPPORTED_WEBHOOK_EVENT_TYPE and sends nothing.
func TestIncomingWebhookMissingHeader(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	_, key := webhookBot(t, s)
	q := url.Values{"api_key": {key}, "stream": {"nowhere"}}
	status, body := postWebhook(t, s, "github", q, []byte(`{}`), nil)
	wantErr(t, status, body, 400, "MISSING_HTTP_EVENT_HEADER", "Missing the HTTP event header 'X-GitHub-Event'")
	if body["header"] != "X-GitHub-Event" {
		t.Errorf("header = %v", body)
	}
	got := lastMessages(t, s, 1)
	want := integrations.MissingHeaderNotice("Hook", "/api/v1/external/github", "X-GitHub-Event", "GitHub", "your server's administrators")
	if got[0][1] != want {
		t.Errorf("notice = %q, want %q", got[0][1], want)
	}
	status, body = postWebhook(t, s, "github", q, []byte(`{"action": "created"}`), map[string]string{"X-GitHub-Event": "sponsorship"})
	wantErr(t, status, body, 200, "UNSUPPORTED_WEBHOOK_EVENT_TYPE", "The 'sponsorship:created' event isn't currently supported by the GitHub webhook; ignoring")
	if body["webhook_name"] != "GitHub" || body["event_type"] != "sponsorship:created" {
		t.Errorf("body = %v", body)
	}
	if diff := cmp.Diff(got, lastMessages(t, s, 1)); diff != "" {
		t.Errorf("an unsupported event sent a message (-before +after):\n%s", diff)
	}
}

// TestIncomingWebhookForms: Zulip reads the raw body whatever its Content-Type (Grafana
// posts JSON as a form), and a form's fields are parameters (Slack's payload, the api_key).
func TestIncomingWebhookForms(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	_, key := webhookBot(t, s)
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/v1/external/grafana?api_key="+key,
		bytes.NewReader(fixtureBytes(t, "grafana/alert_ok.json")))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if status, _, body := do(t, req); status != 200 {
		t.Fatalf("grafana: %d %v", status, body)
	}
	if got := lastMessages(t, s, 1); !strings.HasPrefix(got[0][1], ":squared_ok: **OK**") {
		t.Errorf("message = %v", got)
	}
	form := url.Values{"api_key": {key}, "payload": {`{"text": "from a form"}`}}
	req, _ = http.NewRequest(http.MethodPost, s.URL+"/api/v1/external/slack_incoming", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if status, _, body := do(t, req); status != 200 {
		t.Fatalf("slack: %d %v", status, body)
	}
	if got := lastMessages(t, s, 1); got[0][1] != "from a form" {
		t.Errorf("message = %v", got)
	}
}

// TestIncomingWebhookPeople: Jira names an assignee after the organization's user with that
// address.
func TestIncomingWebhookPeople(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	_, key := webhookBot(t, s)
	body := bytes.ReplaceAll(fixtureBytes(t, "jira/commented_v2.json"), []byte("othello@zulip.com"), []byte("hamlet@zulip.com"))
	if status, got := postWebhook(t, s, "jira", url.Values{"api_key": {key}}, body, nil); status != 200 {
		t.Fatalf("%d %v", status, got)
	}
	if got := lastMessages(t, s, 1); !strings.Contains(got[0][1], "(assigned to **King Hamlet**)") {
		t.Errorf("message = %v", got)
	}
}

// TestIncomingWebhookEventFilters: only_events and exclude_events (JSON lists of shell-style
// patterns) decide which of an integration's messages are sent; a request they filter out
// answers success and sends nothing.
func TestIncomingWebhookEventFilters(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	_, key := webhookBot(t, s)
	ok := fixtureBytes(t, "grafana/alert_ok.json")
	before := lastMessages(t, s, 1)
	for _, q := range []url.Values{
		{"api_key": {key}, "only_events": {`["firing", "alert*"]`}},
		{"api_key": {key}, "exclude_events": {`["o?"]`}},
	} {
		if status, body := postWebhook(t, s, "grafana", q, ok, nil); status != 200 || body["result"] != "success" {
			t.Fatalf("%v: %d %v", q, status, body)
		}
	}
	if diff := cmp.Diff(before, lastMessages(t, s, 1)); diff != "" {
		t.Errorf("a filtered event was sent (-before +after):\n%s", diff)
	}
	q := url.Values{"api_key": {key}, "only_events": {`["[no]k"]`}, "topic": {"ignored without a stream"}}
	if status, body := postWebhook(t, s, "grafana", q, ok, nil); status != 200 {
		t.Fatalf("%d %v", status, body)
	}
	if got := lastMessages(t, s, 1); !strings.HasPrefix(got[0][1], ":squared_ok: **OK**") {
		t.Errorf("message = %v", got)
	}
}

// TestIncomingWebhookInvalidPayload: UptimeRobot answers a payload without its fields with
// Zulip's "Invalid payload" and tells the bot's owner how to configure it.
func TestIncomingWebhookInvalidPayload(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	_, key := webhookBot(t, s)
	status, body := postWebhook(t, s, "uptimerobot", url.Values{"api_key": {key}, "stream": {"nowhere"}},
		fixtureBytes(t, "uptimerobot/uptimerobot_invalid_payload_with_missing_data.json"), nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "Invalid payload")
	got := lastMessages(t, s, 1)
	if !strings.HasPrefix(got[0][1], "Hi there! Your bot Hook just received a UptimeRobot payload that is missing") {
		t.Errorf("notice = %v", got)
	}
}

// TestIncomingWebhookCircleCI: a CircleCI workflow reaches its project's topic from the
// CircleCI client; a pipeline of a provider Zulip does not read is its BAD_REQUEST and stores
// nothing.
func TestIncomingWebhookCircleCI(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	_, key := webhookBot(t, s)
	subscribeHamlet(t, s, "builds")
	q := url.Values{"api_key": {key}, "stream": {"builds"}}
	status, body := postWebhook(t, s, "circleci", q, fixtureBytes(t, "circleci/github_tag_workflow_completed.json"), nil)
	if status != 200 || body["result"] != "success" {
		t.Fatalf("post: %d %v", status, body)
	}
	want := [][3]string{{"circleci-webhook-test",
		"Workflow [`sample`](https://app.circleci.com/pipelines/github/prah23/circleci-webhook-test/20/workflows/045c6271-78e2-4802-8a62-f4fa6d25d0c9) within Pipeline #20 has succeeded.\n\n" +
			"Triggered on the latest tag on [0e6e66c14e6](https://github.com/prah23/circleci-webhook-test/commit/0e6e66c14e61fbcd95db716b0f30d67dbcce7814).",
		"ZulipCircleCIWebhook"}}
	if diff := cmp.Diff(want, lastMessages(t, s, 1)); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
	other := `{"type": "job-completed", "project": {"name": "p"}, "job": {"name": "j", "status": "success"}, "pipeline": {"number": 1,
		"trigger": {"type": "bitbucket_server"}, "trigger_parameters": {"gitlab": {"checkout_sha": "abc", "commit_title": "t",
		"commit_author_name": "a", "web_url": "https://x.example", "branch": "b"}}}}`
	status, body = postWebhook(t, s, "circleci", q, []byte(other), nil)
	wantErr(t, status, body, 400, "BAD_REQUEST", "Projects using this version control system provider aren't supported")
	if diff := cmp.Diff(want, lastMessages(t, s, 1)); diff != "" {
		t.Errorf("stored after the refusal (-want +got):\n%s", diff)
	}
}
