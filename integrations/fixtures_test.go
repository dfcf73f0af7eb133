package integrations

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fixture is one test vector: a fixture of Zulip's (testdata/<integration>/<name>) sent
// with its headers and URL parameters, and the topic and message Zulip's tests.py expects.
type fixture struct {
	name   string // file name under testdata/<integration>/, .json added when it has no extension
	header map[string]string
	params map[string]string
	// form sends the file as an application/x-www-form-urlencoded body.
	form bool
	// want is what is sent, in order; empty: nothing (Zulip's expect_noop).
	want []Message
	// only and exclude are the only_events and exclude_events parameters.
	only, exclude []string
}

// sprintf is fmt.Sprintf, for expected messages.
var sprintf = fmt.Sprintf

// msg is one expected message.
func msg(topic, content string) []Message { return []Message{{Topic: topic, Content: content}} }

// runFixtures checks every fixture of an integration.
func runFixtures(t *testing.T, integration string, cases []fixture) {
	t.Helper()
	in, ok := Lookup(integration)
	if !ok {
		t.Fatalf("no integration %q", integration)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := fixtureRequest(t, integration, tc)
			got, err := in.Run(r)
			if err != nil {
				t.Fatalf("Run(%s): %v", tc.name, err)
			}
			for i := range got {
				got[i].Event = ""
			}
			if len(got) == 0 {
				got = nil
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s/%s (-want +got):\n%s", integration, tc.name, diff)
			}
		})
	}
}

func fixtureRequest(t *testing.T, integration string, tc fixture) *Request {
	t.Helper()
	file := tc.name
	if filepath.Ext(file) == "" {
		file += ".json"
	}
	body, err := os.ReadFile(filepath.Join("testdata", integration, file))
	if err != nil {
		t.Fatal(err)
	}
	params := url.Values{}
	for k, v := range tc.params {
		params.Set(k, v)
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	if tc.form {
		h.Set("Content-Type", "application/x-www-form-urlencoded")
		form, err := url.ParseQuery(strings.TrimSpace(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range form {
			params[k] = v
		}
		body = nil
	}
	for k, v := range tc.header {
		h.Set(k, v)
	}
	people := func() []Person {
		return []Person{{FullName: "Othello, the Moor of Venice", Email: "othello@zulip.com", Active: true}}
	}
	r := &Request{Body: body, Header: h, People: people, Params: func(name string) (string, bool) {
		v, ok := params[name]
		if !ok {
			return "", false
		}
		return v[0], true
	}}
	r.OnlyEvents, r.ExcludeEvents = tc.only, tc.exclude
	if topic, ok := tc.params["topic"]; ok {
		r.Topic = &topic
	}
	return r
}
