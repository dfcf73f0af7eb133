package mattermostimport

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/teamchat/chat/transfer/zulipdir"
)

// realmID is the organization's id in the converted data (the import assigns its own).
const realmID = 1

// Limits bound what an untrusted export may make the conversion read or write.
type Limits struct {
	// MaxLineSize is the longest line of export.json (default 64 MiB: a post carries its
	// replies).
	MaxLineSize int
	// MaxExportSize is the largest export.json (default 16 GiB).
	MaxExportSize int64
	// MaxFileSize is the largest attachment or emoji image copied (default 1 GiB).
	MaxFileSize int64
}

func (l Limits) withDefaults() Limits {
	if l.MaxLineSize <= 0 {
		l.MaxLineSize = 64 << 20
	}
	if l.MaxExportSize <= 0 {
		l.MaxExportSize = 16 << 30
	}
	if l.MaxFileSize <= 0 {
		l.MaxFileSize = 1 << 30
	}
	return l
}

// Options tune a conversion.
type Options struct {
	// MaskContent replaces every letter of the messages by x or X, to share an export for
	// debugging without its content.
	MaskContent bool
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
	// SkippedMessages counts posts of unknown users or conversations and posts longer than
	// Zulip allows.
	SkippedMessages int
}

// Teams lists the teams of the Mattermost bulk export exportFile, in file order.
func Teams(ctx context.Context, exportFile string, opts Options) ([]string, error) {
	d, err := readExportFile(ctx, exportFile, opts.Limits.withDefaults())
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(d.teams))
	for _, t := range d.teams {
		names = append(names, t.Name)
	}
	return names, nil
}

// ConvertMattermost converts the team named team of the Mattermost bulk export exportFile
// (export.json; attachments under data/ and custom emoji images beside it, as the bulk
// export lays them out) into a directory in Zulip's export format at outDir, which must be
// empty or absent. The team becomes the organization, its channels channels, its members
// users (team admins are owners, team guests guests; users who posted in the team after
// leaving it are inactive mirror users), posts and their replies messages in the topic
// "imported from mattermost". Direct messages and group DMs come along only from an export
// of a single team, since Mattermost does not say which team they belong to. An empty team
// picks the export's only team.
func ConvertMattermost(ctx context.Context, exportFile, team, outDir string, opts Options) (Stats, error) {
	opts.Limits = opts.Limits.withDefaults()
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	d, err := readExportFile(ctx, exportFile, opts.Limits)
	if err != nil {
		return Stats{}, err
	}
	t, err := pickTeam(d.teams, team)
	if err != nil {
		return Stats{}, err
	}
	w, err := zulipdir.Create(outDir)
	if err != nil {
		return Stats{}, fmt.Errorf("mattermostimport: %w", err)
	}
	c := &conversion{
		opts: opts, data: d, team: t, single: len(d.teams) == 1, out: w, log: opts.Logger,
		dir: filepath.Dir(exportFile), now: opts.Now(),
	}
	if err := c.run(ctx); err != nil {
		return Stats{}, err
	}
	return c.stats, nil
}

func readExportFile(ctx context.Context, path string, lim Limits) (*exportData, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("mattermostimport: %w", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mattermostimport: %w", err)
	}
	defer f.Close()
	return readExport(f, lim.MaxLineSize, lim.MaxExportSize)
}

func pickTeam(teams []mmTeam, name string) (mmTeam, error) {
	var names []string
	for _, t := range teams {
		if t.Name == name || (name == "" && len(teams) == 1) {
			return t, nil
		}
		names = append(names, t.Name)
	}
	if name == "" {
		return mmTeam{}, fmt.Errorf("mattermostimport: choose a team of the export: %s", strings.Join(names, ", "))
	}
	return mmTeam{}, fmt.Errorf("mattermostimport: no team %q in the export (teams: %s)", name, strings.Join(names, ", "))
}

// conversion is the state of one ConvertMattermost call.
type conversion struct {
	opts   Options
	data   *exportData
	team   mmTeam
	single bool // the export has one team: direct messages belong to it
	out    *zulipdir.Writer
	log    *slog.Logger
	dir    string
	now    time.Time
	stats  Stats
	realm  *zulipdir.Realm

	userID     map[string]int64 // username -> Zulip id
	users      map[int64]zulipdir.UserProfile
	streamID   map[string]int64 // channel name -> Zulip id
	huddleID   map[string]int64 // hash of members -> Zulip id
	recipient  map[[2]int64]int64
	subs       zulipdir.SubscriberMap
	emojiID    map[string]int64
	attachSeq  zulipdir.Seq
	attachment []zulipdir.Attachment
	uploads    []zulipdir.UploadRecord
}

func (c *conversion) run(ctx context.Context) error {
	c.realm = zulipdir.NewRealm(zulipdir.RealmRow{
		ID: realmID, Name: c.team.Name, StringID: c.team.Name,
		Description: "Organization imported from Mattermost!", DateCreated: unixSeconds(c.now), IconSource: "G",
	}, "", "mattermost")
	c.realm.RealmDomain = nil
	c.realm.SortByDate = true
	c.convertUsers()
	c.convertChannels()
	c.convertHuddles()
	c.convertRecipients()
	emojiRecords, err := c.convertEmoji()
	if err != nil {
		return err
	}
	if err := c.convertPosts(ctx); err != nil {
		return err
	}
	c.stats.Users = len(c.realm.UserProfile)
	c.stats.Channels = len(c.realm.Stream)
	c.stats.DirectMessageGroups = len(c.realm.Huddle)
	c.stats.Reactions = len(c.realm.Reaction)
	c.stats.Attachments = len(c.attachment)
	for _, write := range []func() error{
		func() error { return c.out.WriteRealm(c.realm) },
		func() error { return c.out.WriteAttachments(c.attachment) },
		func() error { return c.out.WriteUploadRecords(c.uploads) },
		func() error { return c.out.WriteAvatarRecords(nil) },
		func() error { return c.out.WriteEmojiRecords(emojiRecords) },
	} {
		if err := write(); err != nil {
			return fmt.Errorf("mattermostimport: %w", err)
		}
	}
	return nil
}

func unixSeconds(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

// teamOf is the user's membership of the converted team, or nil.
func (c *conversion) teamOf(u mmUser) *mmUserTeam {
	for i := range u.Teams {
		if u.Teams[i].Name == c.team.Name {
			return &u.Teams[i]
		}
	}
	return nil
}

func hasRole(roles, role string) bool { return slices.Contains(strings.Fields(roles), role) }

// convertUsers converts the team's members and the mirror users: those who posted or replied
// in the team (or, for an export of one team, in a direct conversation) without being in it.
func (c *conversion) convertUsers() {
	posters := map[string]bool{}
	mark := func(p mmPost) {
		posters[p.User] = true
		for _, r := range p.Replies { // Zulip's converter leaves these out, losing the replies
			posters[r.User] = true
		}
	}
	for _, p := range c.data.posts {
		if p.Team == c.team.Name {
			mark(p)
		}
	}
	if c.single {
		for _, p := range c.data.directPosts {
			mark(p)
		}
	}
	c.userID = map[string]int64{}
	c.users = map[int64]zulipdir.UserProfile{}
	var seq zulipdir.Seq
	now := unixSeconds(c.now)
	for _, u := range c.data.users {
		member := c.teamOf(u) != nil
		if _, dup := c.userID[u.Username]; dup || (!member && !posters[u.Username]) {
			continue
		}
		role := zulipdir.RoleMember
		if t := c.teamOf(u); t != nil && hasRole(t.Roles, "team_admin") {
			role = zulipdir.RoleOwner
		} else if t != nil && hasRole(t.Roles, "team_guest") {
			role = zulipdir.RoleGuest
		}
		fullName := zulipdir.FullName(u.FirstName+" "+u.LastName, u.Username)
		id := seq.Next()
		p := zulipdir.UserProfile{
			ID: id, Realm: realmID, Email: u.Email, DeliveryEmail: u.Email, FullName: fullName,
			ShortName: u.Username, IsActive: member, Role: role, IsMirrorDummy: !member,
			IsImportedStub: true, AvatarSource: zulipdir.AvatarGravatar, AvatarVersion: 1,
			DateJoined: now, LastLogin: now, Timezone: "UTC",
		}
		c.userID[u.Username] = id
		c.users[id] = p
		c.realm.UserProfile = append(c.realm.UserProfile, p)
	}
}

// convertChannels converts the team's channels; members are the team members with a
// channel_user or channel_admin role in it.
func (c *conversion) convertChannels() {
	c.streamID = map[string]int64{}
	var seq zulipdir.Seq
	now := unixSeconds(c.now)
	for _, ch := range c.data.channels {
		if ch.Team != c.team.Name || c.streamID[ch.Name] != 0 {
			continue
		}
		invite := ch.Type == "P"
		desc := ch.Purpose
		if desc == "" {
			desc = ch.Header
		}
		id := seq.Next()
		c.streamID[ch.Name] = id
		c.realm.Stream = append(c.realm.Stream, zulipdir.Stream{
			ID: id, Realm: realmID, Name: zulipdir.Truncate(cmpOr(ch.DisplayName, ch.Name), zulipdir.MaxChannelNameLength, ""),
			Description: zulipdir.Truncate(strings.ReplaceAll(desc, "\n", " "), zulipdir.MaxChannelDescriptionLength, ""),
			DateCreated: now, InviteOnly: invite, HistoryPublicToSubscribers: !invite, StreamPostPolicy: 1,
		})
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// huddleKey names a group of direct-message participants by its members.
func huddleKey(members []string) string {
	s := slices.Clone(members)
	slices.Sort(s)
	sum := md5.Sum([]byte(strings.Join(s, "")))
	return hex.EncodeToString(sum[:])
}

// convertHuddles converts the direct channels of more than two members (an export of one
// team only).
func (c *conversion) convertHuddles() {
	c.huddleID = map[string]int64{}
	if !c.single {
		c.log.Warn("mattermostimport: skipping direct messages since there are several teams in the export")
		return
	}
	var seq zulipdir.Seq
	for _, dc := range c.data.directChannels {
		if len(dc.Members) <= 2 {
			continue
		}
		key := huddleKey(dc.Members)
		if c.huddleID[key] != 0 {
			continue
		}
		id := seq.Next()
		c.huddleID[key] = id
		c.realm.Huddle = append(c.realm.Huddle, zulipdir.Huddle{ID: id, GroupSize: len(dc.Members)})
	}
}

// convertRecipients builds the recipients (users, then channels, then groups) and the
// subscriptions.
func (c *conversion) convertRecipients() {
	var rseq, sseq zulipdir.Seq
	c.recipient = map[[2]int64]int64{}
	add := func(typ int, typeID int64) int64 {
		id := rseq.Next()
		c.recipient[[2]int64{int64(typ), typeID}] = id
		c.realm.Recipient = append(c.realm.Recipient, zulipdir.Recipient{ID: id, Type: typ, TypeID: typeID})
		return id
	}
	subscribe := func(recipient int64, users []int64) {
		slices.Sort(users)
		for _, u := range slices.Compact(users) {
			c.realm.Subscription = append(c.realm.Subscription, zulipdir.NewSubscription(sseq.Next(), u, recipient))
		}
	}
	for _, u := range c.realm.UserProfile {
		subscribe(add(zulipdir.RecipientPersonal, u.ID), []int64{u.ID})
	}
	members := map[string][]int64{}
	for _, u := range c.data.users {
		t := c.teamOf(u)
		uid, ok := c.userID[u.Username]
		if t == nil || !ok {
			continue
		}
		for _, ch := range t.Channels {
			if hasRole(ch.Roles, "channel_admin") || hasRole(ch.Roles, "channel_user") {
				members[ch.Name] = append(members[ch.Name], uid)
			}
		}
	}
	nameOf := make(map[int64]string, len(c.streamID))
	for n, id := range c.streamID {
		nameOf[id] = n
	}
	for _, s := range c.realm.Stream {
		subscribe(add(zulipdir.RecipientStream, s.ID), members[nameOf[s.ID]])
	}
	for _, dc := range c.data.directChannels {
		id, ok := c.huddleID[huddleKey(dc.Members)]
		if !ok || c.recipient[[2]int64{zulipdir.RecipientHuddle, id}] != 0 {
			continue
		}
		var users []int64
		for _, m := range dc.Members {
			if uid, ok := c.userID[m]; ok {
				users = append(users, uid)
			}
		}
		subscribe(add(zulipdir.RecipientHuddle, id), users)
	}
	c.subs = zulipdir.NewSubscriberMap(c.realm.Subscription)
}
