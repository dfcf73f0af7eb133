package slackimport

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/teamchat/chat/transfer/zulipdir"
)

// emojiImageTypes are the image file extensions a custom emoji may have.
var emojiImageTypes = []string{".png", ".gif", ".jpg", ".jpeg", ".webp"}

// customEmojiNameRE is what a custom emoji name may be.
var customEmojiNameRE = regexp.MustCompile(`^[a-z0-9_+-]{1,60}$`)

// convertCustomEmoji downloads the workspace's custom emoji (Options.CustomEmoji, the map of
// Slack's emoji.list) into emoji/ and makes them the organization's, as Zulip's
// build_realmemoji does: only images on Slack's emoji host, aliases ("alias:name") left out.
func (c *conversion) convertCustomEmoji(ctx context.Context) ([]zulipdir.EmojiRecord, error) {
	c.realmEmoji = map[string]int64{}
	if c.opts.Fetch == nil || len(c.opts.CustomEmoji) == 0 {
		return nil, nil
	}
	names := make([]string, 0, len(c.opts.CustomEmoji))
	for n := range c.opts.CustomEmoji {
		names = append(names, n)
	}
	slices.Sort(names)
	var seq zulipdir.Seq
	var records []zulipdir.EmojiRecord
	for _, name := range names {
		raw := c.opts.CustomEmoji[name]
		u, err := url.Parse(raw)
		ext := strings.ToLower(path.Ext(u.Path))
		if err != nil || u.Hostname() != "emoji.slack-edge.com" || !slices.Contains(emojiImageTypes, ext) ||
			!customEmojiNameRE.MatchString(name) {
			c.log.Debug("slackimport: skipping custom emoji", "name", name, "url", raw)
			continue
		}
		id := seq.Next()
		file := strconv.FormatInt(id, 10) + ext
		rel := zulipdir.EmojiPathID(realmID, file)
		rc, err := c.opts.Fetch(ctx, raw)
		if err != nil {
			return nil, fmt.Errorf("slackimport: download emoji %s: %w", name, err)
		}
		_, err = c.out.CopyFile("emoji", rel, rc, c.opts.Limits.MaxFileSize)
		_ = rc.Close()
		if err != nil {
			return nil, fmt.Errorf("slackimport: emoji %s: %w", name, err)
		}
		c.realmEmoji[name] = id
		c.realm.RealmEmoji = append(c.realm.RealmEmoji, zulipdir.RealmEmoji{ID: id, Realm: realmID, Name: name, FileName: file})
		records = append(records, zulipdir.EmojiRecord{ID: id, Path: rel, S3Path: rel, FileName: file, RealmID: realmID, Name: name})
	}
	return records, nil
}
