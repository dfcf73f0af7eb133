package integrations

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Zulip's zerver/webhooks/json/tests.py expects "```json\n" + json.dumps(payload, indent=2) +
// "\n```" in the topic JSON; each testdata/json/*.golden is that formula computed by Python 3
// for the fixture beside it.
func TestJSONFixtures(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/json/*.json")
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	var cases []fixture
	for _, f := range files {
		golden, err := os.ReadFile(strings.TrimSuffix(f, ".json") + ".golden")
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, fixture{name: filepath.Base(f), want: msg("JSON", string(golden))})
	}
	runFixtures(t, "json", cases)
}
