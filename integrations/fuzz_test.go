package integrations

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRun feeds every integration arbitrary bodies (seeded with the fixtures): Run never
// panics, and it returns messages or one of the package's errors, never both.
func FuzzRun(f *testing.F) {
	files, _ := filepath.Glob("testdata/*/*.json")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "push")
	}
	f.Add([]byte(`{"text": "*a* _b_ <http://x|y>"}`), "")
	f.Fuzz(func(t *testing.T, body []byte, event string) {
		for _, in := range All() {
			h := http.Header{}
			h.Set("Content-Type", "application/json")
			if in.EventHeader != "" {
				h.Set(in.EventHeader, event)
			}
			r := &Request{Body: body, Header: h, Params: func(string) (string, bool) { return "", false }}
			msgs, err := in.Run(r)
			if err != nil && msgs != nil {
				t.Fatalf("%s: messages and an error: %v", in.Name, err)
			}
		}
	})
}

// FuzzRunHeaders is FuzzRun with the event header of each fixture's integration, so the
// fuzzer explores past the event dispatch of the header-driven integrations.
func FuzzRunHeaders(f *testing.F) {
	for _, seed := range []struct{ file, event string }{
		{"testdata/github/push__force_1_commit.json", "push"},
		{"testdata/github/issues__assigned.json", "issues"},
		{"testdata/github/pull_request__closed.json", "pull_request"},
		{"testdata/gitlab/push_hook.json", "Push Hook"},
		{"testdata/gitlab/issue_hook__issue_created_with_two_assignees.json", "Issue Hook"},
		{"testdata/gitea/pull_request__assigned.json", "pull_request"},
		{"testdata/bitbucket2/pull_request_approved_or_unapproved.json", "pullrequest:created"},
		{"testdata/github/check_run__completed_failure.json", "check_run"},
		{"testdata/gitlab/build_started.json", "Job Hook"},
		{"testdata/gitea/pull_request__opened.json", "pull_request"},
		{"testdata/bitbucket2/push_remove_tag.json", "pullrequest:push"},
		{"testdata/circleci/gitlab_job_completed.json", "job-completed"},
		{"testdata/circleci/github_tag_workflow_completed.json", "workflow-completed"},
		{"testdata/buildbot/finished_cancelled.json", "finished"},
	} {
		b, err := os.ReadFile(seed.file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, seed.event)
	}
	f.Fuzz(func(t *testing.T, body []byte, event string) {
		for _, in := range All() {
			h := http.Header{}
			h.Set("Content-Type", "application/json")
			h.Set("X-GitHub-Event", event)
			h.Set("X-Gitlab-Event", event)
			h.Set("X-Gitea-Event", event)
			h.Set("X-Event-Key", event)
			topic := "t"
			msgs, err := in.Run(&Request{Body: body, Header: h, Topic: &topic})
			if err != nil && msgs != nil {
				t.Fatalf("%s: messages and an error: %v", in.Name, err)
			}
		}
	})
}
