package integrations

import "testing"

// Zulip's zerver/webhooks/grafana/tests.py (no_data_alert and alert_paused are now
// no_data_alert_v7.json and alert_paused_v7.json).
func TestGrafanaFixtures(t *testing.T) {
	t.Parallel()
	const rule = "[Test rule](http://localhost:3000/)\n\nSomeone is testing the alert notification within grafana.\n\n"
	const image = "[Click to view visualization](https://grafana.com/assets/img/blog/mixed_styles.png)"
	runFixtures(t, "grafana", []fixture{
		{name: "alert", want: msg("[Alerting] Test notification",
			":alert: **ALERTING**\n\n"+rule+"**High value:** 100\n**Higher Value:** 200\n\n"+image)},
		{name: "no_data_alert_v7", want: msg("[Alerting] No Data alert",
			":alert: **ALERTING**\n\n[No Data alert](http://localhost:3000/d/GG2qhR3Wz/alerttest?fullscreen&edit&tab=alert&panelId=6&orgId=1)\n\nThe panel has no data.")},
		{name: "no_message_alert", want: msg("[Alerting] No Message alert",
			":alert: **ALERTING**\n\n[No Message alert](http://localhost:3000/d/GG2qhR3Wz/alerttest?fullscreen&edit&tab=alert&panelId=8&orgId=1)\n\n**A-series:** 21.573108436586445")},
		{name: "alert_ok", want: msg("[Ok] Test notification", ":squared_ok: **OK**\n\n"+rule+"**High value:** 0\n\n"+image)},
		{name: "alert_paused_v7", want: msg("[Paused] Test notification", ":info: **PAUSED**\n\n"+rule+"\n"+image)},
		{name: "alert_pending", want: msg("[Pending] Test notification",
			":info: **PENDING**\n\n"+rule+"**High value:** 100\n**Higher Value:** 200\n\n"+image)},
		{name: "alert_new", want: msg("[RESOLVED:1]", ":checkbox: **RESOLVED**\n\nWebhook test message.\n\n---\n**Alert 1**: TestAlert.\n\n"+
			"This alert was fired at <time:2022-08-31T05:54:04.52289368Z>.\n\nThis alert was resolved at <time:2022-08-31T10:30:00.52288431Z>.\n\n"+
			"Labels:\n- alertname: TestAlert\n- instance: Grafana\n\nAnnotations:\n- summary: Notification test\n\n1 alert(s) truncated.")},
		{name: "alert_new_multiple", want: msg("[FIRING:2]", ":alert: **FIRING**\n\nWebhook test message.\n\n"+
			"---\n**Alert 1**: High memory usage.\n\nThis alert was fired at <time:2021-10-12T09:51:03.157076+02:00>.\n"+
			"Labels:\n- alertname: High memory usage\n- team: blue\n- zone: us-1\n\n"+
			"Annotations:\n- description: The system has high memory usage\n- runbook_url: https://myrunbook.com/runbook/1234\n- summary: This alert was triggered for zone us-1\n\n\n"+
			"---\n**Alert 2**: High CPU usage.\n\nThis alert was fired at <time:2021-10-12T09:56:03.157076+02:00>.\n"+
			"Labels:\n- alertname: High CPU usage\n- team: blue\n- zone: eu-1\n\n"+
			"Annotations:\n- description: The system has high CPU usage\n- runbook_url: https://myrunbook.com/runbook/1234\n- summary: This alert was triggered for zone eu-1")},
		{name: "alert_new_multiple", exclude: []string{"firing"}},
		{name: "alert_ok", only: []string{"ok", "resolved"}, want: msg("[Ok] Test notification", ":squared_ok: **OK**\n\n"+rule+"**High value:** 0\n\n"+image)},
	})
}
