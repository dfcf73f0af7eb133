package chat_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	chat "github.com/teamchat/chat"
)

// registerKeyExceptions are the documented register keys a register without arguments does
// not send, each with its reason. Another issue's helper deletes its lines as its keys land.
var registerKeyExceptions = map[string]string{
	"result":                         "the envelope, not state",
	"msg":                            "the envelope, not state",
	"ignored_parameters_unsupported": "only when a parameter is ignored",
	"demo_organization_scheduled_deletion_date": "Zulip sends it to demo organizations only",
	"receives_typing_notifications":             "a personal setting; Zulip sends it inside user_settings only (the copy lists it at the top level without marking it legacy)",
}

// findShared finds shared/<rel> in the working directory or one of its parents.
func findShared(t *testing.T, rel string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "shared", rel)
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skipf("shared/%s not found above the working directory", rel)
		}
		dir = parent
	}
}

// documentedRegisterKeys derives register's keys from Zulip's OpenAPI description (those not
// marked deprecated) and from the spec's register section.
func documentedRegisterKeys(t *testing.T) []string {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromFile(findShared(t, "reference/zulip-openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	op := doc.Paths.Value("/register").Post
	schema := op.Responses.Status(200).Value.Content.Get("application/json").Schema.Value
	keys := map[string]bool{}
	var walk func(s *openapi3.Schema)
	walk = func(s *openapi3.Schema) {
		for name, p := range s.Properties {
			if p.Value == nil || !p.Value.Deprecated {
				keys[name] = true
			}
		}
		for _, b := range s.AllOf {
			walk(b.Value)
		}
	}
	walk(schema)
	spec, err := os.ReadFile(findShared(t, "spec/000_5b45efa3bd1e9bf4.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(spec), "\n") {
		if strings.HasPrefix(line, "The response contains `queue_id`") {
			for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(line, -1) {
				keys[m[1]] = true
			}
		}
	}
	out := make([]string, 0, len(keys))
	for k := range keys {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestRegisterSendsEveryDocumentedKey(t *testing.T) {
	t.Parallel()
	documented := documentedRegisterKeys(t)
	if len(documented) < 150 {
		t.Fatalf("only %d documented keys found: the description was not read right", len(documented))
	}
	f := newFixture(t)
	for _, who := range []string{"owner", "member"} {
		res, err := f.svc.RegisterQueue(t.Context(), f.actor(who), chat.RegisterQueueParams{})
		if err != nil {
			t.Fatal(err)
		}
		got := jsonObject(t, res)
		for _, key := range documented {
			if _, ok := got[key]; !ok && registerKeyExceptions[key] == "" {
				t.Errorf("register (%s) lacks the documented key %s", who, key)
			}
		}
	}
	for key := range registerKeyExceptions {
		if !slices.Contains(documented, key) {
			t.Errorf("exception for %s, which is not documented: delete it", key)
		}
	}
}
