package integrations

import (
	"errors"
	"testing"
)

// Zulip's zerver/webhooks/circleci/tests.py (the one of its view for CircleCI's webhooks, which
// tests every fixture that view reads: nine).
func TestCircleCIFixtures(t *testing.T) {
	t.Parallel()
	const gh = "circleci-webhook-test"
	const bb = "circleci-webhook-testing"
	const ghCommit = "\n\nTriggered on [`a5e30a90822: .circleci: Update Webhook URL.`](https://github.com/zulip-testing/circleci-webhook-test/commit/a5e30a908224e46626a796d058289475f6d387b5) on branch `main` by Hari Prashant Bhimaraju."
	const bbCommit = "\n\nTriggered on [`8ab595d2de9: app.py edited online with Bitbucket`](https://bitbucket.org/hariprashant1/circleci-webhook-testing/commits/8ab595d2de95767993472837df2cb7884519a92b) on branch `master` by Hari Prashant Bhimaraju."
	const glCommit = "\n\nTriggered on [`c31f86994c5: app: Enhance message within hello().`](https://gitlab.com/zulip-testing/circleci-webhook-test/-/commit/c31f86994c54672f97b5bd5e544315b7bd40e4c1) on branch `main` by Hari Prashant Bhimaraju."
	runFixtures(t, "circleci", []fixture{
		{name: "ping", want: msg("Test event", "Webhook 'Testing' test event successful.")},
		{name: "bitbucket_job_completed", want: msg(bb, "Job `build-and-test` within Pipeline #4 has succeeded."+bbCommit)},
		{name: "bitbucket_manual_workflow_completed", want: msg(bb,
			"Workflow [`sample`](https://app.circleci.com/pipelines/bitbucket/hariprashant1/circleci-webhook-testing/2/workflows/baa45986-84db-47a0-bc6c-89e9fe751bc9) within Pipeline #2 has succeeded.\n\n"+
				"Triggered on `master`'s HEAD on [cab5eacb4cc](https://bitbucket.org/hariprashant1/circleci-webhook-testing/commits/cab5eacb4ccee2710529894425341fa20a48fe6a).")},
		{name: "bitbucket_workflow_completed", want: msg(bb,
			"Workflow [`sample`](https://app.circleci.com/pipelines/bitbucket/hariprashant1/circleci-webhook-testing/4/workflows/fd29ef0c-3e39-4c8f-b1d5-d8be1bab8165) within Pipeline #4 has succeeded."+bbCommit)},
		{name: "github_job_completed", want: msg(gh, "Job `build-and-test` within Pipeline #4 has succeeded."+ghCommit)},
		{name: "github_tag_workflow_completed", want: msg(gh,
			"Workflow [`sample`](https://app.circleci.com/pipelines/github/prah23/circleci-webhook-test/20/workflows/045c6271-78e2-4802-8a62-f4fa6d25d0c9) within Pipeline #20 has succeeded.\n\n"+
				"Triggered on the latest tag on [0e6e66c14e6](https://github.com/prah23/circleci-webhook-test/commit/0e6e66c14e61fbcd95db716b0f30d67dbcce7814).")},
		{name: "github_workflow_completed", want: msg(gh,
			"Workflow [`sample`](https://app.circleci.com/pipelines/github/zulip-testing/circleci-webhook-test/4/workflows/7381218b-d04c-4aa3-b8b8-8c00a9319d1f) within Pipeline #4 has succeeded."+ghCommit)},
		{name: "gitlab_job_completed", want: msg(gh, "Job `build-and-test` within Pipeline #3 has succeeded."+glCommit)},
		{name: "gitlab_workflow_completed", want: msg(gh,
			"Workflow [`sample`](https://app.circleci.com/pipelines/circleci/89xcrx7UvWQfzcUPAEmu5Q/63AY3yf3XeUQojmQcGZTtB/3/workflows/b23ceb64-127a-4075-a27c-d204a7a0a3b3) within Pipeline #3 has succeeded."+glCommit)},
		// The event types only_events and exclude_events name.
		{name: "github_job_completed", exclude: []string{"job-*"}},
		{name: "github_workflow_completed", only: []string{"job-completed"}},
		{name: "ping", only: []string{"ping"}, want: msg("Test event", "Webhook 'Testing' test event successful.")},
	})
}

// TestCircleCIRefusals: what Zulip's view refuses, and an outcome its map lacks (Python's None).
func TestCircleCIRefusals(t *testing.T) {
	t.Parallel()
	in, _ := Lookup("circleci")
	for _, tc := range []struct {
		name, body, want string
	}{
		{"another provider", `{"type": "job-completed", "project": {"name": "p"}, "job": {"name": "j", "status": "success"},
			"pipeline": {"number": 1, "trigger": {"type": "bitbucket_server"}, "trigger_parameters": {"gitlab": {"checkout_sha": "abc",
			"commit_title": "t", "commit_author_name": "a", "web_url": "https://x.example", "branch": "b"}}}}`,
			"Projects using this version control system provider aren't supported"},
		{"not a URL", `{"type": "workflow-completed", "project": {"name": "p"}, "workflow": {"name": "w", "url": "nowhere", "status": "success"},
			"pipeline": {"number": 1, "vcs": {"revision": "abc", "target_repository_url": "https://x.example", "provider_name": "github",
			"branch": "main", "commit": {"subject": "s", "author": {"name": "a"}}}}}`,
			"Unable to parse request: Did CircleCI generate this event?"},
		{"another type", `{"type": "build", "project": {"name": "p"}, "pipeline": {"number": 1, "vcs": {"revision": "abc",
			"target_repository_url": "https://x.example", "provider_name": "github", "branch": null, "commit": {"subject": null}}}}`,
			"Unable to parse request: Did CircleCI generate this event?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			msgs, err := in.Run(&Request{Body: []byte(tc.body)})
			if msgs != nil || err == nil || err.Error() != tc.want {
				t.Fatalf("Run = %v, %v; want %q", msgs, err, tc.want)
			}
			var bad *BadRequestError
			if errors.As(err, &bad) != (tc.name == "another provider") {
				t.Errorf("BadRequestError: %v", err)
			}
		})
	}
	msgs, err := in.Run(&Request{Body: []byte(`{"type": "job-completed", "project": {"name": "p"}, "job": {"name": "j", "status": "queued"},
		"pipeline": {"number": 7, "vcs": {"revision": "abc", "target_repository_url": "https://x.example", "provider_name": "bitbucket",
		"branch": "dev", "commit": {"subject": "", "author": {"name": null}}}}}`)})
	want := "Job `j` within Pipeline #7 None.\n\nTriggered on `dev`'s HEAD on [abc](https://x.example/commits/abc)."
	if err != nil || len(msgs) != 1 || msgs[0].Content != want {
		t.Errorf("Run = %v, %v; want %q", msgs, err, want)
	}
}
