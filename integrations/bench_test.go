package integrations

import (
	"net/http"
	"os"
	"testing"
)

// BenchmarkRunGitHubPush formats a GitHub push (the payload of the rate benchmark,
// httpapi's BenchmarkIncomingWebhookRate).
func BenchmarkRunGitHubPush(b *testing.B) {
	body, err := os.ReadFile("testdata/github/push__force_1_commit.json")
	if err != nil {
		b.Fatal(err)
	}
	in, _ := Lookup("github")
	h := http.Header{}
	h.Set("X-GitHub-Event", "push")
	b.ReportAllocs()
	for range b.N {
		if _, err := in.Run(&Request{Body: body, Header: h}); err != nil {
			b.Fatal(err)
		}
	}
}
