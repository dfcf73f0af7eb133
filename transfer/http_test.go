package transfer_test

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	blobmemory "github.com/teamchat/chat/blobs/memory"
	"github.com/teamchat/chat/chattest"
)

// TestRealmExportOverHTTP starts an export through POST /api/v1/export/realm, waits for it in
// GET /api/v1/export/realm and downloads its export_url: administrators get the tarball,
// members and anonymous callers do not.
func TestRealmExportOverHTTP(t *testing.T) {
	t.Parallel()
	srv := chattest.NewServer(t, chattest.Dev(), chattest.Configure(func(o *chat.Options) { o.Blobs = blobmemory.New() }))
	admin, member := srv.User("iago@zulip.com"), srv.User("hamlet@zulip.com")
	call := func(method, path string, u *chattest.User, form url.Values) *http.Response {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+path, strings.NewReader(form.Encode()))
		must(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if u != nil {
			req.SetBasicAuth(u.Email, u.APIKey)
		}
		resp, err := srv.HTTP.Client().Do(req)
		must(t, err)
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	decode := func(resp *http.Response, v any) {
		t.Helper()
		must(t, json.NewDecoder(resp.Body).Decode(v))
	}
	if resp := call("POST", "/api/v1/export/realm", &member, url.Values{}); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("POST by a member: %d", resp.StatusCode)
	}
	if resp := call("POST", "/api/v1/export/realm", &admin, url.Values{"export_type": {"7"}}); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("POST of export_type 7: %d", resp.StatusCode)
	}
	var created struct {
		Result string `json:"result"`
		ID     int64  `json:"id"`
	}
	decode(call("POST", "/api/v1/export/realm", &admin, url.Values{"export_type": {"2"}}), &created)
	if created.Result != "success" || created.ID == 0 {
		t.Fatalf("POST /export/realm: %+v", created)
	}
	var exportURL string
	for deadline := time.Now().Add(30 * time.Second); exportURL == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var list struct {
			Exports []chat.ExportRecord `json:"exports"`
		}
		decode(call("GET", "/api/v1/export/realm", &admin, nil), &list)
		for _, e := range list.Exports {
			if e.ID == created.ID && e.ExportURL != nil {
				exportURL = *e.ExportURL
			}
		}
	}
	if !strings.HasPrefix(exportURL, srv.URL+"/user_avatars/exports/") {
		t.Fatalf("export_url %q", exportURL)
	}
	path := strings.TrimPrefix(exportURL, srv.URL)
	for _, tc := range []struct {
		name string
		user *chattest.User
		want int
	}{
		{"anonymous", nil, http.StatusUnauthorized},
		{"member", &member, http.StatusBadRequest},
		{"administrator", &admin, http.StatusOK},
	} {
		resp := call("GET", path, tc.user, nil)
		if resp.StatusCode != tc.want {
			t.Errorf("download as %s: %d, want %d", tc.name, resp.StatusCode, tc.want)
			continue
		}
		if tc.want != http.StatusOK {
			continue
		}
		if cc := resp.Header.Get("Cache-Control"); cc != "private, no-store" {
			t.Errorf("Cache-Control %q", cc)
		}
		gz, err := gzip.NewReader(resp.Body)
		must(t, err)
		n, err := io.Copy(io.Discard, gz)
		if err != nil || n == 0 {
			t.Errorf("the tarball: %d bytes, %v", n, err)
		}
	}
	var consents struct {
		Consents []chat.ExportConsent `json:"export_consents"`
	}
	decode(call("GET", "/api/v1/export/realm/consents", &admin, nil), &consents)
	if len(consents.Consents) == 0 {
		t.Error("GET /export/realm/consents listed nobody")
	}
	if resp := call("DELETE", "/api/v1/export/realm/"+jsonNumber(created.ID), &admin, nil); resp.StatusCode != http.StatusOK {
		t.Errorf("DELETE: %d", resp.StatusCode)
	}
	if resp := call("GET", path, &admin, nil); resp.StatusCode == http.StatusOK {
		t.Error("the deleted export is still downloadable")
	}
}

func jsonNumber(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
