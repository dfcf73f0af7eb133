package integrations

import "testing"

// Zulip's zerver/webhooks/jira/tests.py. Zulip's test organization has Othello
// (othello@zulip.com); the other addresses of the fixtures belong to nobody there.
func TestJiraFixtures(t *testing.T) {
	t.Parallel()
	const bug = "BUG-15: New bug with hook"
	const link = "[BUG-15: New bug with hook](http://lfranchi.com:8080/browse/BUG-15)"
	const othello = " (assigned to **Othello, the Moor of Venice**)"
	runFixtures(t, "jira", []fixture{
		{name: "created_v2", want: msg(bug, "Leo Franchi created "+link+":\n\n* **Priority**: Major\n* **Assignee**: no one")},
		{name: "created_v2", params: map[string]string{"topic": "alerts%20test"}, want: msg("alerts test",
			"Leo Franchi created "+link+":\n\n* **Priority**: Major\n* **Assignee**: no one")},
		{name: "deleted_v2", want: msg(bug, "Leo Franchi deleted "+link+".")},
		{name: "commented_v2", want: msg(bug, "Leo Franchi commented on "+link+othello+":\n\n``` quote\nAdding a comment. Oh, what a comment it is!\n```")},
		{name: "commented_v2_with_two_full_links", want: msg(bug, "Leo Franchi commented on "+link+othello+":\n\n``` quote\n"+
			"This is the [first link](https://google.com) and this is the [second link](https://google.com) and this is the end.\n```")},
		{name: "reassigned_v2", want: msg(bug, "Leo Franchi updated "+link+othello+":\n\n* Changed assignee to **Othello, the Moor of Venice**")},
		{name: "updated_priority_v2", want: msg("TEST-1: Fix That",
			"Leonardo Franchi [Administrator] updated [TEST-1: Fix That](https://zulipp.atlassian.net/browse/TEST-1) (assigned to **leo@zulip.com**):\n\n"+
				"* Changed priority from **Critical** to **Major**")},
		{name: "change_status_v2", want: msg("TEST-1: Fix That",
			"Leonardo Franchi [Administrator] updated [TEST-1: Fix That](https://zulipp.atlassian.net/browse/TEST-1):\n\n"+
				"* Changed status from **To Do** to **In Progress**")},
		{name: "comment_deleted_v2", want: msg("TOM-1: New Issue",
			"Tomasz Kolek deleted a comment from [TOM-1: New Issue](https://zuliptomek.atlassian.net/browse/TOM-1) (assigned to **kolaszek@go2.pl**).")},
		{name: "comment_edited_v2", want: msg(bug, "Leo Franchi edited a comment on "+link+othello+":\n\n``` quote\nAdding a comment. Oh, what a comment it is!\n```")},
		{name: "created_assignee_v2", want: msg("TEST-4: Test Created Assignee",
			"Leonardo Franchi [Administrator] created [TEST-4: Test Created Assignee](https://zulipp.atlassian.net/browse/TEST-4):\n\n"+
				"* **Priority**: Major\n* **Assignee**: Leonardo Franchi [Administrator]")},
		{name: "change_status_v2", exclude: []string{"jira:*"}},
	})
}

func TestJiraIgnoredAndAnomalous(t *testing.T) {
	t.Parallel()
	in, _ := Lookup("jira")
	for _, ev := range jiraIgnored {
		msgs, err := in.Run(&Request{Body: []byte(`{"webhookEvent": "` + ev + `"}`)})
		if msgs != nil || err != nil {
			t.Errorf("%s: %v, %v", ev, msgs, err)
		}
	}
	_, err := in.Run(&Request{Body: []byte(`{"issue": {}}`)})
	if err == nil || err.Error() != "Unable to parse request: Did Jira generate this event?" {
		t.Errorf("anomalous: %v", err)
	}
}
