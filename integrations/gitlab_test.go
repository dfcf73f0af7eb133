package integrations

import "testing"

// Zulip's zerver/webhooks/gitlab/tests.py; the X-Gitlab-Event header is the fixture name up
// to its "__", title-cased ("push_hook" is "Push Hook"), and "Job Hook" for builds.
func TestGitLabFixtures(t *testing.T) {
	t.Parallel()
	ev := func(e string) map[string]string { return map[string]string{"X-Gitlab-Event": e} }
	custom := map[string]string{"topic": "notifications"}
	const push = "Tomasz Kolek [pushed](https://gitlab.com/tomaszkolek0/my-awesome-project/-/compare/5fcdd5551fc3085df79bece2c32b1400802ac407...eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9) 2 commits to branch tomek.\n\n" +
		"* b ([66abd2da288](https://gitlab.com/tomaszkolek0/my-awesome-project/commit/66abd2da28809ffa128ed0447965cf11d7f863a7))\n" +
		"* c ([eb6ae1e591e](https://gitlab.com/tomaszkolek0/my-awesome-project/commit/eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9))"
	const project = "[[my-awesome-project](https://gitlab.com/tomaszkolek0/my-awesome-project)] "
	runFixtures(t, "gitlab", []fixture{
		{name: "push_hook", header: ev("Push Hook"), want: msg("my-awesome-project / tomek", push)},
		{name: "push_hook", header: ev("Push Hook"), params: map[string]string{"topic": "Specific topic"}, want: msg("Specific topic", project+push)},
		{name: "push_hook", header: ev("Push Hook"), params: map[string]string{"branches": "master,tomek"}, want: msg("my-awesome-project / tomek", push)},
		{name: "push_hook", header: ev("Push Hook"), params: map[string]string{"branches": "master,development"}},
		{name: "push_hook__remove_branch", header: ev("Push Hook"), want: msg("my-awesome-project / tomek", "Tomasz Kolek deleted branch tomek.")},
		{name: "tag_push_hook__add_tag", header: ev("Tag Push Hook"), want: msg("my-awesome-project", "Tomasz Kolek pushed tag xyz.")},
		{name: "tag_push_hook__remove_tag", header: ev("Tag Push Hook"), want: msg("my-awesome-project", "Tomasz Kolek removed tag xyz.")},
		{name: "issue_hook__issue_created_with_two_assignees", header: ev("Issue Hook"), want: msg("Zulip GitLab Test / issue #2 Zulip Test Issue 2",
			"Adam Birds created [issue #2](https://gitlab.com/adambirds/zulip-gitlab-test/issues/2) (assigned to Adam Birds and Eeshan Garg):\n\n~~~ quote\nZulip Test Issue 2\n~~~")},
		{name: "issue_hook__issue_opened_with_null_description", header: ev("Issue Hook"), want: msg("my-awesome-project / issue #7 Issue without description",
			"Eeshan Garg created [issue #7](https://gitlab.com/eeshangarg/my-awesome-project/issues/7).")},
		{name: "issue_hook__issue_updated", header: ev("Issue Hook"), want: msg("my-awesome-project / issue #1 Issue title_new",
			"Tomasz Kolek updated [issue #1](https://gitlab.com/tomaszkolek0/my-awesome-project/issues/1).")},
		{name: "issue_hook__issue_updated", header: ev("Issue Hook"), params: custom, want: msg("notifications",
			project+"Tomasz Kolek updated [issue #1 Issue title_new](https://gitlab.com/tomaszkolek0/my-awesome-project/issues/1).")},
		{name: "issue_hook__issue_closed", header: ev("Issue Hook"), want: msg("my-awesome-project / issue #1 Issue title_new",
			"Tomasz Kolek closed [issue #1](https://gitlab.com/tomaszkolek0/my-awesome-project/issues/1).")},
		{name: "build_created", header: ev("Job Hook"), want: msg("my-awesome-project / master", "Build job_name from test stage was created.")},
		{name: "build_created", header: ev("Build Hook"), want: msg("my-awesome-project / master", "Build job_name from test stage was created.")},
		{name: "build_started", header: ev("Job Hook"), want: msg("my-awesome-project / master", "Build job_name from test stage started.")},
		{name: "build_succeeded", header: ev("Job Hook"), want: msg("my-awesome-project / master", "Build job_name from test stage changed status to success.")},
		{name: "issue_hook__issue_closed", header: ev("Issue Hook"), exclude: []string{"Issue Hook close"}},
	})
}
