package httpapi

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

func uploadsMatrixRows() []matrixRow {
	readers := outcome{byCaller: map[string]int{"anonymous": 401, "deactivated": 401, "member": 200, "admin": 200}, fallback: 403}
	return []matrixRow{
		{method: "POST", path: "user_uploads", file: "notes.txt", want: authenticated()},
		{method: "POST", path: "user_uploads", want: only()}, // no file: BAD_REQUEST for everyone
		{method: "GET", path: "user_uploads/2/{upload}", setup: memberFileSharedWithAdmin, want: readers},
		{method: "GET", path: "attachments", want: authenticated()},
		{method: "DELETE", path: "attachments/1", setup: memberFileSharedWithAdmin, want: only("member")},
		// The matrix's file is text: BAD_IMAGE for everyone (the HTTP test uploads a real image).
		{method: "POST", path: "users/me/avatar", file: "avatar.png", want: only()},
		{method: "DELETE", path: "users/me/avatar", want: authenticated()},
	}
}

// memberFileSharedWithAdmin uploads a file as the member and links it in a direct message to
// the admin; {upload} is its path id after the organization's id.
func memberFileSharedWithAdmin(t *testing.T, m *matrixOrg) {
	status, body := m.upload(t, "member", "user_uploads", "plan.txt")
	url, _ := body["url"].(string)
	if status != 200 || url == "" {
		t.Fatalf("setup upload: %d %v", status, body)
	}
	m.vars["upload"] = strings.TrimPrefix(url, "/user_uploads/2/")
	m.mustCall(t, "member", "POST", "messages", map[string]string{"type": "direct", "to": "[{admin}]", "content": "[plan](" + url + ")"})
}

// upload sends a multipart POST with one file part named name.
func (m *matrixOrg) upload(t *testing.T, as, path, name string) (int, map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write([]byte("contents of " + name))
	mw.Close()
	req, err := http.NewRequest(http.MethodPost, m.srv.URL+m.prefix()+m.expand(path), &buf)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	m.authorize(req, as)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatalf("upload: body is not JSON: %v", err)
	}
	return resp.StatusCode, got
}
