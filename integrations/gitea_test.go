package integrations

import "testing"

// Zulip's zerver/webhooks/gitea/tests.py; the X-Gitea-Event header is the fixture name up to
// its "__".
func TestGiteaFixtures(t *testing.T) {
	t.Parallel()
	ev := func(e string) map[string]string { return map[string]string{"X-Gitea-Event": e} }
	custom := map[string]string{"topic": "notifications"}
	push := "kostekIV [pushed](https://try.gitea.io/kostekIV/test/compare/21138d2ca0ce18f8e037696fdbe1b3f0c211f630...2ec0c971d04723523aa20f2b378f8b419b47d4ec) 5 commits to branch d.\n\n" +
		"* commit ([2ec0c971d04](https://try.gitea.io/kostekIV/test/commit/2ec0c971d04723523aa20f2b378f8b419b47d4ec))\n" +
		"* commit ([6cb1701c8b0](https://try.gitea.io/kostekIV/test/commit/6cb1701c8b0114ad716f4cd49153076e7109cb85))\n" +
		"* commit ([6773eabc077](https://try.gitea.io/kostekIV/test/commit/6773eabc0778a3e38997c06a13f5f0c48b67e5dc))\n" +
		"* commit ([337402cf675](https://try.gitea.io/kostekIV/test/commit/337402cf675ce7082ddcd23d06a116c85241825a))\n" +
		"* commit ([0a38cad3fac](https://try.gitea.io/kostekIV/test/commit/0a38cad3fac3a13bb78b738d13f15ce9cc3343fa))"
	runFixtures(t, "gitea", []fixture{
		{name: "push__5_commits", header: ev("push"), want: msg("test / d", push)},
		{name: "push__5_commits", header: ev("push"), params: map[string]string{"branches": "changes,development"}},
		{name: "push__5_commits", header: ev("push"), params: map[string]string{"branches": "changes,d"}, want: msg("test / d", push)},
		{name: "create__branch", header: ev("create"), want: msg("test / test-branch",
			"kostekIV created [test-branch](https://try.gitea.io/kostekIV/test/src/test-branch) branch.")},
		{name: "pull_request__edited", header: ev("pull_request"), want: msg("test / PR #1906 test 2",
			"kostekIV edited [PR #5](https://try.gitea.io/kostekIV/test/pulls/5).")},
		{name: "pull_request__assigned", header: ev("pull_request"), want: msg("test / PR #1906 test 2",
			"kostekIV assigned [PR #5](https://try.gitea.io/kostekIV/test/pulls/5) from `d` to `master` (assigned to kostekIV).")},
		{name: "pull_request__assigned", header: ev("pull_request"), params: custom, want: msg("notifications",
			"kostekIV assigned [PR #5 test 2](https://try.gitea.io/kostekIV/test/pulls/5) from `d` to `master` (assigned to kostekIV).")},
		{name: "issues__opened", header: ev("issues"), want: msg("test / issue #3 Test issue",
			"kostekIV opened [issue #3](https://try.gitea.io/kostekIV/test/issues/3):\n\n~~~ quote\nTest body\n~~~")},
		{name: "issues__edited", header: ev("issues"), want: msg("test / issue #3 Test issue 2",
			"kostekIV edited [issue #3](https://try.gitea.io/kostekIV/test/issues/3) (assigned to kostekIV):\n\n~~~ quote\nTest body\n~~~")},
		{name: "issue_comment__new", header: ev("issue_comment"), want: msg("test / issue #3 Test issue",
			"kostekIV [commented](https://try.gitea.io/kostekIV/test/issues/3#issuecomment-24400) on [issue #3](https://try.gitea.io/kostekIV/test/issues/3):\n\n~~~ quote\ntest comment\n~~~")},
		{name: "pull_request__opened", header: ev("pull_request"), want: msg("test / PR #1905 New pr",
			"kostekIV opened [PR #4](https://try.gitea.io/kostekIV/test/pulls/4) from `test-branch` to `master`.")},
		{name: "pull_request__closed", header: ev("pull_request"), want: msg("test / PR #1906 test 2",
			"kostekIV closed [PR #5](https://try.gitea.io/kostekIV/test/pulls/5) from `d` to `master`.")},
		{name: "issues__closed", header: ev("issues"), want: msg("test / issue #3 Test issue 2",
			"kostekIV closed [issue #3](https://try.gitea.io/kostekIV/test/issues/3) (assigned to kostekIV):\n\n~~~ quote\nTest body\n~~~")},
		{name: "issue_comment__new", header: ev("issue_comment"), exclude: []string{"issue_*"}},
	})
}
