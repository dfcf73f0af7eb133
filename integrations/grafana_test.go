package integrations

import (
	"strings"
	"testing"
)

// Zulip's zerver/webhooks/grafana/tests.py (its Grafana 7 fixtures under the names alert,
// no_data_alert_v7, no_message_alert, alert_ok, alert_paused_v7 and alert_pending; its
// alert_new* expectations are those of the tests.py that named them so).
func TestGrafanaFixtures(t *testing.T) {
	t.Parallel()
	const rule = "[Test rule](http://localhost:3000/)\n\nSomeone is testing the alert notification within grafana.\n\n"
	const image = "[Click to view visualization](https://grafana.com/assets/img/blog/mixed_styles.png)"
	const v11 = "This alert was fired at <time:2024-03-01T02:09:00Z>.\n\nLabels:\n- alertname: Memory (copy)\n- debug: true\n- grafana_folder: device\n\n" +
		"Values:\n- A: 2473545728\n- B: 0\n- C: 1\n- minute: 9\n\nAnnotations:\n- summary: High memory usage\n\n" +
		"[Generator](https://play.grafana.org/alerting/grafana/dd2f0260-3cfc-4c65-a4c4-f3f632c551f4/view?orgId=1)\n" +
		"[Silence](https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DMemory+%28copy%29&matcher=debug%3Dtrue&matcher=grafana_folder%3Ddevice&orgId=1)\n" +
		"[Image](https://grafana.com/assets/img/blog/mixed_styles.png)"
	// multiple is the two messages of alert_new_multiple and alert_multiple_v8, given each
	// alert's values.
	multiple := func(values1, values2 string) []Message {
		alert := func(name, zone, what, start, generator, silence, values string) Message {
			return Message{Topic: "[" + name + "]", Content: ":alert: **FIRING**\n\n**" + name + "**\n\nThis alert was fired at <time:" + start + ">.\n\n" +
				"Labels:\n- alertname: " + name + "\n- team: blue\n- zone: " + zone + "\n\nValues:\n" + values + "\n" +
				"Annotations:\n- description: The system has high " + what + " usage\n- runbook_url: https://myrunbook.com/runbook/1234\n- summary: This alert was triggered for zone " + zone + "\n\n" +
				"[Generator](https://play.grafana.org/alerting/" + generator + "/edit)\n" +
				"[Silence](https://play.grafana.org/alerting/silence/new?alertmanager=grafana&matchers=alertname%3D" + silence + "%2Cteam%3Dblue%2Czone%3D" + zone + ")"}
		}
		return []Message{
			alert("High memory usage", "us-1", "memory", "2021-10-12T09:51:03.157076+02:00", "1afz29v7z", "T2", values1),
			alert("High CPU usage", "eu-1", "CPU", "2021-10-12T09:56:03.157076+02:00", "d1rdpdv7k", "T1", values2),
		}
	}
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
		{name: "alert_new", want: msg("[TestAlert]", ":checkbox: **RESOLVED**\n\n**TestAlert**\n\n"+
			"This alert was fired at <time:2022-08-31T05:54:04.52289368Z>.\n\nThis alert was resolved at <time:2022-08-31T10:30:00.52288431Z>.\n\n"+
			"Labels:\n- alertname: TestAlert\n- instance: Grafana\n\nValues:\n- foo: 10\n\nAnnotations:\n- summary: Notification test\n\n"+
			"[Silence](https://zuliptestingwh2.grafana.net/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DTestAlert&matcher=instance%3DGrafana)\n"+
			"[Image](https://grafana.com/assets/img/blog/mixed_styles.png)")},
		{name: "alert_new_no_labels", want: msg("[57c6d9296de2ad39]", ":checkbox: **RESOLVED**\n\n"+
			"This alert was fired at <time:2022-08-31T05:54:04.52289368Z>.\n\nThis alert was resolved at <time:2022-08-31T10:30:00.52288431Z>.")},
		{name: "alert_new_multiple", want: multiple("- B: 44.23943737541908\n- C: 1\n", "- B: 44.23943737541908\n- C: 1\n")},
		{name: "alert_v8", want: msg("[TestAlert]", ":checkbox: **RESOLVED**\n\n**TestAlert**\n\n"+
			"This alert was fired at <time:2022-08-31T05:54:04.52289368Z>.\n\nThis alert was resolved at <time:2022-08-31T10:30:00.52288431Z>.\n\n"+
			"Labels:\n- alertname: TestAlert\n- instance: Grafana\n\nValues:\n[ metric='foo' labels={instance=bar} value=10 ]\n\nAnnotations:\n- summary: Notification test\n\n"+
			"[Silence](https://zuliptestingwh2.grafana.net/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DTestAlert&matcher=instance%3DGrafana)")},
		{name: "alert_multiple_v8", want: multiple("[ metric='' labels={} value=14151.331895396988 ]\n", "[ metric='' labels={} value=47043.702386305304 ]\n")},
		{name: "alert_values_v11", want: msg("[Memory (copy)]", ":alert: **FIRING**\n\n**Memory (copy)**\n\n"+v11)},
		{name: "alert_no_alertname_v11", want: msg("[e6349a25f5ef0e9e]", ":alert: **FIRING**\n\n"+
			strings.Replace(v11, "- alertname: Memory (copy)\n", "", 1))},
		{name: "alert_new_multiple", exclude: []string{"firing"}},
		{name: "alert_ok", only: []string{"ok", "resolved"}, want: msg("[Ok] Test notification", ":squared_ok: **OK**\n\n"+rule+"**High value:** 0\n\n"+image)},
	})
}
