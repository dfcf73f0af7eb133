package main

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/blobs/disk"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/storage/sqlstore"
)

// upload posts content as a multipart file of name and returns the response (nil on a
// transport failure).
func upload(base, key string, name string, content io.Reader) (map[string]any, error) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		fw, _ := mw.CreateFormFile("file", name)
		_, err := io.Copy(fw, content)
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	req, _ := http.NewRequest(http.MethodPost, base+"/api/v1/user_uploads", pr)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.SetBasicAuth("iago@zulip.com", key)
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out map[string]any
	return out, json.NewDecoder(resp.Body).Decode(&out)
}

// slowReader yields n bytes, signalling once half of them were read, then trickles the rest.
type slowReader struct {
	left, half int
	halfway    chan struct{}
}

func (s *slowReader) Read(p []byte) (int, error) {
	if s.left <= 0 {
		return 0, io.EOF
	}
	if s.left <= s.half {
		if s.halfway != nil {
			close(s.halfway)
			s.halfway = nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	n := min(len(p), s.left, 64<<10)
	s.left -= n
	return n, nil
}

// TestUploadAcrossKill kills the server with SIGKILL in the middle of a large upload: after a
// restart the attachment rows are exactly those of the acknowledged uploads, each with its
// bytes, and a clean-up pass leaves no byte that nothing references.
func TestUploadAcrossKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	t.Parallel()
	dir := t.TempDir()
	store := "sqlite:" + filepath.Join(dir, "chat.db")
	key := seeds.DevAPIKey("iago@zulip.com", "devpassword")
	srv := startChild(t, store)

	done, err := upload(srv.base, key, "kept.txt", strings.NewReader("acknowledged bytes"))
	if err != nil || done["result"] != "success" {
		t.Fatalf("first upload: %v %v", done, err)
	}
	halfway := make(chan struct{})
	failed := make(chan error, 1)
	go func() {
		_, err := upload(srv.base, key, "killed.bin", &slowReader{left: 20 << 20, half: 10 << 20, halfway: halfway})
		failed <- err
	}()
	select {
	case <-halfway:
	case <-time.After(60 * time.Second):
		t.Fatal("the large upload did not get halfway")
	}
	srv.kill(t)
	if err := <-failed; err == nil {
		t.Fatal("the interrupted upload was acknowledged")
	}

	// Restarted on the same store and directory: only the acknowledged file.
	srv = startChild(t, store)
	resp, err := httpClient.Do(authed(t, srv.base+"/api/v1/attachments", key))
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Attachments []struct {
			PathID string `json:"path_id"`
		} `json:"attachments"`
	}
	json.NewDecoder(resp.Body).Decode(&list)
	resp.Body.Close()
	if len(list.Attachments) != 1 || !strings.HasSuffix(list.Attachments[0].PathID, "/kept.txt") {
		t.Fatalf("attachments after the kill: %+v", list.Attachments)
	}
	resp, err = httpClient.Do(authed(t, srv.base+"/user_uploads/"+list.Attachments[0].PathID, key))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(b, []byte("acknowledged bytes")) {
		t.Fatalf("kept file reads %q", b)
	}
	srv.kill(t)

	// A clean-up pass (its grace period elapsed) leaves only the referenced file.
	uploadsDir := filepath.Join(dir, "chat-uploads")
	ctx := t.Context()
	st, err := sqlstore.Open(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	bs, err := disk.Open(uploadsDir)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := chat.New(chat.Options{Store: st, Blobs: bs, Now: func() time.Time { return time.Now().Add(2 * time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	if _, err := svc.SweepUploads(ctx, chat.SweepUploadsParams{}); err != nil {
		t.Fatal(err)
	}
	var files []string
	filepath.Walk(uploadsDir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			rel, _ := filepath.Rel(uploadsDir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if len(files) != 1 || files[0] != "objects/uploads/"+list.Attachments[0].PathID {
		t.Fatalf("files after the clean-up pass: %v", files)
	}
}

func authed(t *testing.T, url, key string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth("iago@zulip.com", key)
	return req
}
