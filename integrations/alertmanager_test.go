package integrations

import "testing"

// Zulip's zerver/webhooks/alertmanager/tests.py; its URL sets name=topic and desc=description.
func TestAlertmanagerFixtures(t *testing.T) {
	t.Parallel()
	params := map[string]string{"name": "topic", "desc": "description"}
	const src = "([source](http://cobalt:9090/graph?g0.expr=avg+by%28host%29+%28sensors_temp_input%7Bfeature%3D~%22core_%5B0-9%5D%2B%22%7D%29+%3E+15&g0.tab=0))"
	runFixtures(t, "alertmanager", []fixture{
		{name: "alert", params: params, want: msg("andromeda",
			":alert: **FIRING**\n* CPU core temperature is 34.75C "+src+"\n* CPU core temperature is 17.625C "+src)},
		{name: "single_alert", params: params, want: msg("andromeda",
			":squared_ok: **Resolved** CPU core temperature is 34.75C "+src)},
		{name: "single_alert_no_url", params: params, want: msg("andromeda",
			":alert: **FIRING** CPU core temperature is 34.75C")},
		{name: "alert", want: msg("(unknown)", // the defaults: instance and alertname
			":alert: **FIRING**\n* High CPU Temperature "+src+"\n* High CPU Temperature "+src)},
	})
}
