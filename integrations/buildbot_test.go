package integrations

import "testing"

// Zulip's zerver/webhooks/buildbot/tests.py: its four fixtures, all Zulip has.
func TestBuildbotFixtures(t *testing.T) {
	t.Parallel()
	const success = "Build [#33](http://exampleurl.com/#builders/1/builds/33) (result: success) for **runtests** finished."
	runFixtures(t, "buildbot", []fixture{
		{name: "started", want: msg("buildbot-hello", "Build [#33](http://exampleurl.com/#builders/1/builds/33) for **runtests** started.")},
		{name: "finished_success", want: msg("buildbot-hello", success)},
		{name: "finished_failure", want: msg("general", // the project is empty
			"Build [#34](http://exampleurl.com/#builders/1/builds/34) (result: failure) for **runtests** finished.")},
		{name: "finished_cancelled", want: msg("zulip/zulip-zapier",
			"Build [#10434](https://ci.example.org/#builders/79/builds/307) (result: cancelled) for **AMD64 Ubuntu 18.04 Python 3** finished.")},
		{name: "finished_success", only: []string{"new"}},
		{name: "finished_success", exclude: []string{"new"}, want: msg("buildbot-hello", success)},
	})
}

// TestBuildbotPayloads: Python's negative index into the results, and the payloads Zulip's
// view cannot format.
func TestBuildbotPayloads(t *testing.T) {
	t.Parallel()
	in, _ := Lookup("buildbot")
	const build = `"buildid": 1, "buildername": "b", "url": "u", "project": "p"`
	for _, tc := range []struct {
		name, body, want string
	}{
		{"a negative result", `{"event": "finished", "results": -2, ` + build + `}`, "Build [#1](u) (result: retry) for **b** finished."},
		{"a result past the end", `{"event": "finished", "results": 7, ` + build + `}`, ""},
		{"finished without results", `{"event": "finished", ` + build + `}`, ""},
		{"another event", `{"event": "stopped", "results": 0, ` + build + `}`, ""},
		{"no project", `{"event": "new", "buildid": 1, "buildername": "b", "url": "u"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			msgs, err := in.Run(&Request{Body: []byte(tc.body)})
			if tc.want == "" {
				if msgs != nil || err == nil || err.Error() != "Unable to parse request: Did Buildbot generate this event?" {
					t.Fatalf("Run = %v, %v; want the anomalous payload error", msgs, err)
				}
				return
			}
			if err != nil || len(msgs) != 1 || msgs[0].Content != tc.want {
				t.Fatalf("Run = %v, %v; want %q", msgs, err, tc.want)
			}
		})
	}
}
