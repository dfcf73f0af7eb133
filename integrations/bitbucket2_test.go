package integrations

import "testing"

// Zulip's zerver/webhooks/bitbucket2/tests.py.
func TestBitbucket2Fixtures(t *testing.T) {
	t.Parallel()
	key := func(k string) map[string]string { return map[string]string{"X-Event-Key": k} }
	custom := map[string]string{"topic": "notifications"}
	const pr = "Repository name / PR #1 new commit"
	const firstPush = "Tomasz [pushed](https://bitbucket.org/kolaszek/repository-name/branch/master) 1 commit to branch master.\n\n" +
		"* first commit ([84b96adc644](https://bitbucket.org/kolaszek/repository-name/commits/84b96adc644a30fd6465b3d196369d880762afed))"
	const tag = "Tomasz pushed tag [a](https://bitbucket.org/kolaszek/repository-name/commits/tag/a)."
	const force = "Tomasz [force pushed](https://bitbucket.org/kolaszek/repository-name/branch/master) to branch master. Head is now 25f93d22b719e2d678a7ad5ee0ef0d1fcdf39c12."
	both := []Message{{Topic: "Repository name / master", Content: firstPush}, {Topic: "Repository name", Content: tag}}
	runFixtures(t, "bitbucket2", []fixture{
		{name: "force_push", want: msg("Repository name / master", force)},
		{name: "force_push", params: map[string]string{"branches": "master,development"}, want: msg("Repository name / master", force)},
		{name: "force_push", params: map[string]string{"branches": "changes,development"}},
		{name: "remove_branch", want: msg("Repository name / master", "Tomasz deleted branch master.")},
		{name: "fork", want: msg("Repository name", "Tomasz forked the repository into [kolaszek/repository-name2](https://bitbucket.org/kolaszek/repository-name2).")},
		{name: "commit_comment_created", want: msg("Repository name",
			"Tomasz [commented](https://bitbucket.org/kolaszek/repository-name/commits/32c4ea19aa3af10acd08e419e2c354941a365d74#comment-3354963) on [32c4ea19aa3](https://bitbucket.org/kolaszek/repository-name/commits/32c4ea19aa3af10acd08e419e2c354941a365d74):\n~~~ quote\nNice fix!\n~~~")},
		{name: "commit_status_changed", want: msg("Repository name",
			"[System mybuildtool](https://my-build-tool.com/builds/MY-PROJECT/BUILD-777) changed status of [9fec847784a](https://bitbucket.org/kolaszek/repository-name/commits/9fec847784abb10b2fa567ee63b85bd238955d0e) to SUCCESSFUL.")},
		{name: "issue_commented", want: msg("Repository name / issue #1 Bug",
			"Tomasz [commented](https://bitbucket.org/kolaszek/repository-name/issues/2#comment-28973596) on [issue #1](https://bitbucket.org/kolaszek/repository-name/issues/2/bug).")},
		{name: "issue_commented", params: custom, want: msg("notifications",
			"Tomasz [commented](https://bitbucket.org/kolaszek/repository-name/issues/2#comment-28973596) on [issue #1 Bug](https://bitbucket.org/kolaszek/repository-name/issues/2/bug).")},
		{name: "pull_request_approved_or_unapproved", header: key("pullrequest:approved"), want: msg(pr,
			"Tomasz approved [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1).")},
		{name: "pull_request_approved_or_unapproved", header: key("pullrequest:approved"), params: custom, want: msg("notifications",
			"Tomasz approved [PR #1 new commit](https://bitbucket.org/kolaszek/repository-name/pull-requests/1).")},
		{name: "pull_request_approved_or_unapproved", header: key("pullrequest:unapproved"), want: msg(pr,
			"Tomasz unapproved [PR #1](https://bitbucket.org/kolaszek/repository-name/pull-requests/1).")},
		{name: "push_one_tag", header: key("pullrequest:push"), want: msg("Repository name", tag)},
		{name: "push_remove_tag", header: key("pullrequest:push"), want: msg("Repository name",
			"Tomasz removed tag [a](https://bitbucket.org/kolaszek/repository-name/commits/tag/a).")},
		{name: "issue_updated", want: msg("Repository name / issue #1 Bug",
			"Tomasz updated [issue #1](https://bitbucket.org/kolaszek/repository-name/issues/2/bug).")},
		{name: "more_than_one_push_event", header: key("pullrequest:push"), want: both},
		{name: "more_than_one_push_event", header: key("pullrequest:push"), params: map[string]string{"branches": "master,development"}, want: both},
		{name: "more_than_one_push_event", header: key("pullrequest:push"), params: map[string]string{"branches": "changes,development"}, want: both},
		{name: "more_than_one_push_event", params: map[string]string{"topic": "a%20b"}, want: []Message{
			{Topic: "a b", Content: firstPush}, {Topic: "a b", Content: tag}}},
	})
}
