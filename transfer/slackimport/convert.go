package slackimport

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/teamchat/chat/transfer/zulipdir"
)

// realmID is the organization's id in the converted data (the import assigns its own).
const realmID = 1

// Fetcher downloads the bytes at url: files uploaded to Slack and avatars. The caller closes
// the reader.
type Fetcher func(ctx context.Context, url string) (io.ReadCloser, error)

// Limits bound what an untrusted export may make the conversion read or write.
type Limits struct {
	// MaxEntries is the most entries the zip may hold (default 1,000,000).
	MaxEntries int
	// MaxEntrySize is the largest uncompressed JSON entry (default 256 MiB).
	MaxEntrySize int64
	// MaxTotalSize is the most uncompressed bytes of JSON in all (default 16 GiB).
	MaxTotalSize int64
	// MaxFileSize is the largest file or avatar downloaded (default 1 GiB).
	MaxFileSize int64
}

func (l Limits) withDefaults() Limits {
	if l.MaxEntries <= 0 {
		l.MaxEntries = 1_000_000
	}
	if l.MaxEntrySize <= 0 {
		l.MaxEntrySize = 256 << 20
	}
	if l.MaxTotalSize <= 0 {
		l.MaxTotalSize = 16 << 30
	}
	if l.MaxFileSize <= 0 {
		l.MaxFileSize = 1 << 30
	}
	return l
}

// Options tune a conversion. The zero value converts with Zulip's defaults and downloads
// nothing.
type Options struct {
	// Domain is the email domain of users the export gives no address (bots, Slackbot,
	// users whose address is hidden). Default "imported.example.com".
	Domain string
	// Subdomain is the organization's string id in realm.json (the import may override it).
	Subdomain string
	// SingleTopic puts every channel message in the topic "imported from Slack" instead of
	// one topic per thread.
	SingleTopic bool
	// Fetch, when set, downloads the files uploaded to Slack (which become uploads of the
	// organization) and the users' avatars. Without it a file becomes a link to Slack and
	// users get a Gravatar.
	Fetch Fetcher
	// CustomEmoji is the workspace's custom emoji, name to image URL, as Slack's emoji.list
	// API returns them (an export has none). With Fetch they become the organization's
	// custom emoji, and reactions with them are kept.
	CustomEmoji map[string]string
	// Limits bound the export's sizes.
	Limits Limits
	// Now is the time of the conversion (date_joined of the users); default time.Now.
	Now func() time.Time
	// Logger receives progress and skipped items; default slog.Default().
	Logger *slog.Logger
}

// Stats counts what a conversion wrote.
type Stats struct {
	Users, Channels, DirectMessageGroups int
	Messages, Reactions, Attachments     int
	// SkippedMessages counts join, leave, pin and rename notices, posts and messages
	// without a sender.
	SkippedMessages int
}

// ConvertSlack converts the Slack export zipPath (the workspace zip: users.json,
// channels.json, groups.json, mpims.json, dms.json and a directory of daily message files
// per conversation) into a directory in Zulip's export format at outDir, which must be empty
// or absent. Public channels become public channels, private ones private channels with
// protected history, multi-person DMs direct-message groups, DMs direct messages, threads
// topics; reactions, files and mentions follow their messages.
func ConvertSlack(ctx context.Context, zipPath, outDir string, opts Options) (Stats, error) {
	return convert(ctx, outDir, opts, func(lim Limits) (*archive, error) { return openArchive(zipPath, lim) })
}

// ConvertSlackDir is ConvertSlack for an export already unzipped into dir.
func ConvertSlackDir(ctx context.Context, dir, outDir string, opts Options) (Stats, error) {
	return convert(ctx, outDir, opts, func(lim Limits) (*archive, error) { return openDirArchive(dir, lim) })
}

func convert(ctx context.Context, outDir string, opts Options, open func(Limits) (*archive, error)) (Stats, error) {
	if opts.Domain == "" {
		opts.Domain = "imported.example.com"
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	opts.Limits = opts.Limits.withDefaults()
	a, err := open(opts.Limits)
	if err != nil {
		return Stats{}, err
	}
	defer a.Close()
	if !a.has("channels.json") {
		return Stats{}, fmt.Errorf("%w: channels.json is missing", ErrInvalidExport)
	}
	w, err := zulipdir.Create(outDir)
	if err != nil {
		return Stats{}, fmt.Errorf("slackimport: %w", err)
	}
	c := &conversion{opts: opts, arch: a, out: w, log: opts.Logger, now: opts.Now()}
	if err := c.run(ctx); err != nil {
		return Stats{}, err
	}
	return c.stats, nil
}

// conversion is the state of one ConvertSlack call.
type conversion struct {
	opts  Options
	arch  *archive
	out   *zulipdir.Writer
	log   *slog.Logger
	now   time.Time
	stats Stats

	realm *zulipdir.Realm

	users     []*slackUser
	userByID  map[string]*slackUser
	zulipID   map[string]int64 // Slack user id -> Zulip user id
	emailOf   map[int64]string
	botEmails map[string]int // bot email -> times given

	channels  []slackChannel // public, then private
	private   map[string]bool
	mpims     []slackChannel
	dms       []slackDM
	dmMembers map[string][2]string

	recipientOf map[string]int64 // channel or mpim name, or Slack user id -> recipient id
	realmEmoji  map[string]int64 // custom emoji name -> id
	subscribers zulipdir.SubscriberMap
	text        converter

	msgSeq, umSeq, reactionSeq, attachmentSeq zulipdir.Seq
	attachments                               []zulipdir.Attachment
	uploads                                   []zulipdir.UploadRecord
}

func (c *conversion) run(ctx context.Context) error {
	if err := c.readConversations(); err != nil {
		return err
	}
	if err := c.readUsers(ctx); err != nil {
		return err
	}
	c.realm = zulipdir.NewRealm(zulipdir.RealmRow{
		ID: realmID, Name: c.opts.Subdomain, StringID: c.opts.Subdomain,
		Description: "Organization imported from Slack!", DateCreated: unixSeconds(c.now),
		IconSource: "G",
	}, c.opts.Domain, "slack")
	c.convertUsers()
	c.convertConversations()
	emojiRecords, err := c.convertCustomEmoji(ctx)
	if err != nil {
		return err
	}
	if err := c.convertMessages(ctx); err != nil {
		return err
	}
	avatars, err := c.convertAvatars(ctx)
	if err != nil {
		return err
	}
	c.stats.Users = len(c.realm.UserProfile)
	c.stats.Reactions = len(c.realm.Reaction)
	c.stats.Attachments = len(c.attachments)
	for _, write := range []func() error{
		func() error { return c.out.WriteRealm(c.realm) },
		func() error { return c.out.WriteAttachments(c.attachments) },
		func() error { return c.out.WriteUploadRecords(c.uploads) },
		func() error { return c.out.WriteAvatarRecords(avatars) },
		func() error { return c.out.WriteEmojiRecords(emojiRecords) },
	} {
		if err := write(); err != nil {
			return fmt.Errorf("slackimport: %w", err)
		}
	}
	return nil
}

func unixSeconds(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }
