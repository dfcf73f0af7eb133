package httpapi

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeListsEveryRoute keeps the README's endpoint list in step with the routing table.
func TestReadmeListsEveryRoute(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range New(nil, Options{}).routes {
		entry := "`" + rt.method + " " + strings.ReplaceAll(rt.pattern, "...}", "}") + "`"
		if !strings.Contains(string(readme), entry) {
			t.Errorf("README.md does not list %s under Endpoints", entry)
		}
	}
}
