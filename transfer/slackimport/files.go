package slackimport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/teamchat/chat/transfer/zulipdir"
)

// fileInfo is what a message's files add to it.
type fileInfo struct {
	content                          string
	hasAttachment, hasImage, hasLink bool
}

// convertFiles links the message's files. A file uploaded to Slack becomes an upload of the
// organization when a Fetcher is given (downloaded to uploads/), else a link to Slack; a file
// of another service (Google Drive...) stays a link. Deleted and hidden files are left out.
func (c *conversion) convertFiles(ctx context.Context, m *slackMessage, messageID, senderID int64) (fileInfo, error) {
	files := m.Files
	if m.Subtype == "file_share" && m.File != nil {
		files = []slackFile{*m.File}
	}
	var info fileInfo
	var links []string
	for _, f := range files {
		if f.Mode == "tombstone" || f.Mode == "hidden_by_limit" ||
			f.FileAccess == "access_denied" || f.FileAccess == "file_not_found" || f.URLPrivate == "" {
			continue
		}
		title := f.Title
		if title == "" {
			title = f.Name
		}
		u, err := url.Parse(f.URLPrivate)
		if err != nil || u.Hostname() != "files.slack.com" || c.opts.Fetch == nil {
			info.hasLink = true
			target := f.URLPrivate
			if err == nil && u.Hostname() == "files.slack.com" && f.Permalink != "" {
				target = f.Permalink // the private URL may carry a token
			}
			links = append(links, fmt.Sprintf("[%s](%s)", title, target))
			continue
		}
		pathID, err := c.download(ctx, f, senderID)
		if err != nil {
			return fileInfo{}, err
		}
		info.hasAttachment, info.hasLink = true, true
		info.hasImage = info.hasImage || strings.Contains(f.Mimetype, "image")
		links = append(links, fmt.Sprintf("[%s](/user_uploads/%s)", title, pathID))
		var ctype *string
		if f.Mimetype != "" {
			ct := f.Mimetype
			ctype = &ct
		}
		c.attachments = append(c.attachments, zulipdir.Attachment{
			ID: c.attachmentSeq.Next(), Realm: realmID, Owner: senderID, Messages: []int64{messageID},
			PathID: pathID, FileName: f.Name, Size: f.Size, CreateTime: float64(f.Created),
			IsRealmPublic: true, ContentType: ctype,
		})
	}
	info.content = strings.Join(links, "\n")
	return info, nil
}

// download fetches a Slack file into uploads/ and records it.
func (c *conversion) download(ctx context.Context, f slackFile, owner int64) (string, error) {
	pathID, err := zulipdir.UploadPathID(realmID, f.Name)
	if err != nil {
		return "", err
	}
	rc, err := c.opts.Fetch(ctx, f.URLPrivate)
	if err != nil {
		return "", fmt.Errorf("slackimport: download file %s: %w", f.ID, err)
	}
	defer rc.Close()
	n, err := c.out.CopyFile("uploads", pathID, rc, c.opts.Limits.MaxFileSize)
	if err != nil {
		return "", fmt.Errorf("slackimport: file %s: %w", f.ID, err)
	}
	c.uploads = append(c.uploads, zulipdir.UploadRecord{
		Path: pathID, S3Path: pathID, RealmID: realmID, UserProfileID: owner,
		UserProfileEmail: c.emailOf[owner], Size: n, LastModified: float64(f.Timestamp),
	})
	return pathID, nil
}

// convertAvatars downloads the avatars of the users whose avatar source is an upload, each
// written twice as Zulip keeps them (the image and the original).
func (c *conversion) convertAvatars(ctx context.Context) ([]zulipdir.AvatarRecord, error) {
	if c.opts.Fetch == nil {
		return nil, nil
	}
	var images, originals []zulipdir.AvatarRecord
	now := unixSeconds(c.now)
	done := map[int64]bool{}
	for _, u := range c.users {
		id := c.zulipID[u.ID]
		src := avatarURL(u)
		if src == "" || done[id] {
			continue
		}
		done[id] = true
		base := fmt.Sprintf("%d/user-%d", realmID, id)
		if err := c.fetchAvatar(ctx, src, base); err != nil {
			return nil, err
		}
		rec := zulipdir.AvatarRecord{
			RealmID: realmID, UserProfileID: id, AvatarVersion: 1, LastModified: now, ContentType: "image/png",
		}
		rec.Path, rec.S3Path = base+".png", base+".png"
		images = append(images, rec)
		rec.Path, rec.S3Path = base+".original", base+".original"
		originals = append(originals, rec)
	}
	return append(images, originals...), nil
}

func (c *conversion) fetchAvatar(ctx context.Context, src, base string) error {
	rc, err := c.opts.Fetch(ctx, src)
	if err != nil {
		return fmt.Errorf("slackimport: download avatar: %w", err)
	}
	data, err := io.ReadAll(io.LimitReader(rc, c.opts.Limits.MaxFileSize+1))
	_ = rc.Close()
	if err != nil {
		return fmt.Errorf("slackimport: download avatar: %w", err)
	}
	if int64(len(data)) > c.opts.Limits.MaxFileSize {
		return fmt.Errorf("slackimport: avatar larger than %d bytes", c.opts.Limits.MaxFileSize)
	}
	for _, ext := range []string{".png", ".original"} {
		if _, err := c.out.CopyFile("avatars", base+ext, strings.NewReader(string(data)), c.opts.Limits.MaxFileSize); err != nil {
			return fmt.Errorf("slackimport: %w", err)
		}
	}
	return nil
}

// ErrForbiddenURL is returned by the HTTP fetcher for a URL outside Slack's file and avatar
// hosts, or not HTTPS.
var ErrForbiddenURL = errors.New("slackimport: URL outside Slack's hosts")

// NewHTTPFetcher returns a Fetcher that downloads with client, sending token (a Slack token
// with files:read) as a bearer token. It fetches only HTTPS URLs of slack.com and
// slack-edge.com hosts, so an export cannot point the conversion elsewhere.
func NewHTTPFetcher(client *http.Client, token string) Fetcher {
	return func(ctx context.Context, raw string) (io.ReadCloser, error) {
		u, err := url.Parse(raw)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrForbiddenURL, err)
		}
		host := u.Hostname()
		if u.Scheme != "https" || !(strings.HasSuffix(host, ".slack.com") || strings.HasSuffix(host, ".slack-edge.com")) {
			return nil, fmt.Errorf("%w: %s", ErrForbiddenURL, host)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
		if err != nil {
			return nil, fmt.Errorf("slackimport: %w", err)
		}
		if token != "" && strings.HasSuffix(host, ".slack.com") {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("slackimport: %w", err)
		}
		if resp.StatusCode != http.StatusOK {
			_ = resp.Body.Close()
			return nil, fmt.Errorf("slackimport: GET %s: %s", host, resp.Status)
		}
		return resp.Body, nil
	}
}
