package integrations

import (
	"net/http"
	"testing"
)

// Zulip's zerver/webhooks/github/tests.py; the X-GitHub-Event header is the fixture name up
// to its "__" (Zulip's get_http_headers_from_filename).
func TestGitHubFixtures(t *testing.T) {
	t.Parallel()
	ev := func(e string) map[string]string { return map[string]string{"X-GitHub-Event": e} }
	custom := map[string]string{"topic": "notifications"}
	const milestone = "[sbansal1999](https://github.com/sbansal1999) %s milestone [some_random_milestone](https://github.com/sbansal1999/testing-gh/milestone/1) %s [issue #6%s](https://github.com/sbansal1999/testing-gh/issues/6)."
	runFixtures(t, "github", []fixture{
		{name: "ping__organization", header: ev("ping"), want: msg("zulip-test-org", "GitHub webhook has been successfully configured by eeshangarg.")},
		{name: "push__delete_branch", header: ev("push"), want: msg("public-repo / feature",
			"eeshangarg [deleted](https://github.com/eeshangarg/public-repo/compare/2e8cf535fb38...000000000000) the branch feature.")},
		{name: "push__force_1_commit", header: ev("push"), want: msg("zulip / temp",
			"sbansal1999 [force pushed](https://github.com/sbansal1999/zulip/compare/b6de8891fc10...971d76ca3094) 1 commit to branch temp.\n\n"+
				"* log: Add important.txt which is useful for logging errors. ([971d76ca309](https://github.com/sbansal1999/zulip/commit/971d76ca309446a9c20381f6271cea8a59b4e40a))")},
		{name: "push__force_1_commit", header: ev("push"), params: map[string]string{"branches": "master,development"}},
		{name: "push__force_1_commit", header: ev("push"), params: map[string]string{"branches": "main,temp"}, want: msg("zulip / temp",
			"sbansal1999 [force pushed](https://github.com/sbansal1999/zulip/compare/b6de8891fc10...971d76ca3094) 1 commit to branch temp.\n\n"+
				"* log: Add important.txt which is useful for logging errors. ([971d76ca309](https://github.com/sbansal1999/zulip/commit/971d76ca309446a9c20381f6271cea8a59b4e40a))")},
		{name: "issues__assigned", header: ev("issues"), want: msg("testing-gh / issue #7 Testing when issue assigned!",
			"sbansal1999 assigned sbansal1999 to [issue #7](https://github.com/sbansal1999/testing-gh/issues/7).")},
		{name: "issues__assigned", header: ev("issues"), params: custom, want: msg("notifications",
			"sbansal1999 assigned sbansal1999 to [issue #7 Testing when issue assigned!](https://github.com/sbansal1999/testing-gh/issues/7)")},
		{name: "issues__labeled", header: ev("issues"), want: msg("testing-gh / issue #9 idk man",
			"[sbansal1999](https://github.com/sbansal1999) added the bug label to [Issue #9](https://github.com/sbansal1999/testing-gh/issues/9).")},
		{name: "issues__labeled", header: ev("issues"), params: custom, want: msg("notifications",
			"[sbansal1999](https://github.com/sbansal1999) added the bug label to [Issue #9 idk man](https://github.com/sbansal1999/testing-gh/issues/9).")},
		{name: "issues__milestoned", header: ev("issues"), want: msg("testing-gh / issue #6 This is a sample issue to test GH I...",
			sprintf(milestone, "added", "to", ""))},
		{name: "issues__milestoned", header: ev("issues"), params: custom, want: msg("notifications",
			sprintf(milestone, "added", "to", " This is a sample issue to test GH Integration Func"))},
		{name: "issues__demilestoned", header: ev("issues"), want: msg("testing-gh / issue #6 This is a sample issue to test GH I...",
			sprintf(milestone, "removed", "from", ""))},
		{name: "pull_request__closed", header: ev("pull_request"), want: msg("public-repo / PR #1 Update the README with new information",
			"baxterthehacker closed without merge [PR #1](https://github.com/baxterthehacker/public-repo/pull/1).")},
		{name: "pull_request__closed", header: ev("pull_request"), params: custom, want: msg("notifications",
			"baxterthehacker closed without merge [PR #1 Update the README with new information](https://github.com/baxterthehacker/public-repo/pull/1).")},
		{name: "membership__removal", header: ev("membership"), want: msg("baxterandthehackers organization",
			"baxterthehacker removed [kdaigle](https://github.com/kdaigle) from the Contractors team.")},
		{name: "page_build__errored", header: ev("page_build"), want: msg("public-repo",
			"GitHub Pages build, triggered by baxterthehacker, has failed: \n~~~ quote\nSomething went wrong.\n~~~.")},
		{name: "public", header: ev("public"), want: msg("public-repo",
			"baxterthehacker made the repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo) public.")},
		// GitHub Actions reports each job as a check run (tests.py's test_check_run; the failure's
		// expectation is view.py's get_check_run_body, and a run not yet completed sends nothing).
		{name: "check_run__completed_success", header: ev("check_run"), want: msg("hello-world / checks",
			"Check [randscape](http://github.com/github/hello-world/runs/4) completed (success). ([d6fde92930d](http://github.com/github/hello-world/commit/d6fde92930d4715a2b49857d24b940956b26d2d3))")},
		{name: "check_run__completed_failure", header: ev("check_run"), want: msg("hello-world / checks",
			"Check [randscape](http://github.com/github/hello-world/runs/4) completed (failure). ([d6fde92930d](http://github.com/github/hello-world/commit/d6fde92930d4715a2b49857d24b940956b26d2d3))")},
		{name: "check_run_in_progress", header: ev("check_run")},
		{name: "check_run__completed_success", header: ev("check_suite")},
		// Events Zulip ignores, and the common event filters.
		{name: "public", header: ev("label")},
		{name: "public", header: ev("public"), params: map[string]string{}, want: nil, only: []string{"push*"}},
		{name: "public", header: ev("public"), exclude: []string{"pub?ic"}},
		{name: "public", header: ev("public"), only: []string{"p[tu]blic"}, want: msg("public-repo",
			"baxterthehacker made the repository [baxterthehacker/public-repo](https://github.com/baxterthehacker/public-repo) public.")},
	})
}

func TestGitHubRefusals(t *testing.T) {
	t.Parallel()
	in, _ := Lookup("github")
	for _, tc := range []struct {
		name   string
		header string
		body   string
		want   error
	}{
		{"no event header", "", `{}`, &MissingHeaderError{Header: "X-GitHub-Event"}},
		{"an event Zulip does not support", "sponsorship", `{"action": "created"}`, &UnsupportedEventError{Webhook: "GitHub", Event: "sponsorship:created"}},
		{"a pull request action Zulip does not support", "pull_request", `{"action": "dequeued"}`, &UnsupportedEventError{Webhook: "GitHub", Event: "pull_request:dequeued"}},
		{"malformed JSON", "push", `{"ref": `, ErrInvalidJSON},
		{"a payload of another service", "public", `{"text": "hi"}`, &AnomalousPayloadError{Webhook: "GitHub"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := http.Header{}
			if tc.header != "" {
				h.Set("X-GitHub-Event", tc.header)
			}
			msgs, err := in.Run(&Request{Body: []byte(tc.body), Header: h})
			if msgs != nil || err == nil || err.Error() != tc.want.Error() {
				t.Fatalf("Run = %v, %v; want %v", msgs, err, tc.want)
			}
		})
	}
}
