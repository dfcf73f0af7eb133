package transfer

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"github.com/teamchat/chat/transfer/zulipdir"
	"io"
	"os"
	"path/filepath"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/realms"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/uploads"
	"github.com/teamchat/chat/users"
)

// Bounds on the files an import reads (the archive is untrusted).
const (
	MaxRealmJSONBytes   = 1 << 30 // realm.json
	MaxMessageFileBytes = 1 << 28 // one messages-NNNNNN.json
	MaxRecordsBytes     = 1 << 28 // attachment.json and a records.json
	MaxImportFileBytes  = 1 << 32 // one uploaded file, avatar or emoji image
)

// ImportOptions configure an import.
type ImportOptions struct {
	Progress *Progress
}

// ImportResult counts what an import created.
type ImportResult struct {
	Users, Channels, Messages, Files int64
}

// realmFile is realm.json as the import reads it.
type realmFile struct {
	Realm            []map[string]json.RawMessage  `json:"zerver_realm"`
	Users            []userRecord                  `json:"zerver_userprofile"`
	MirrorDummies    []userRecord                  `json:"zerver_userprofile_mirrordummy"`
	CrossRealm       []crossRealmRecord            `json:"zerver_userprofile_crossrealm"`
	Streams          []streamRecord                `json:"zerver_stream"`
	Recipients       []zulipdir.Recipient          `json:"zerver_recipient"`
	Huddles          []zulipdir.Huddle             `json:"zerver_huddle"`
	Subscriptions    []zulipdir.Subscription       `json:"zerver_subscription"`
	UserGroups       []userGroupRecord             `json:"zerver_usergroup"`
	NamedGroups      []namedGroupRecord            `json:"zerver_namedusergroup"`
	Memberships      []membershipRecord            `json:"zerver_usergroupmembership"`
	GroupMemberships []groupMembershipRecord       `json:"zerver_groupgroupmembership"`
	Emoji            []zulipdir.RealmEmoji         `json:"zerver_realmemoji"`
	Fields           []zulipdir.CustomProfileField `json:"zerver_customprofilefield"`
	Values           []zulipdir.CustomProfileValue `json:"zerver_customprofilefieldvalue"`
	Drafts           []draftRecord                 `json:"zerver_draft"`
	Scheduled        []scheduledRecord             `json:"zerver_scheduledmessage"`
	Clients          []zulipdir.Client             `json:"zerver_client"`
	Reactions        []zulipdir.Reaction           `json:"zerver_reaction"` // where Zulip puts them
	DefaultStreams   []struct {
		Stream int64 `json:"stream"`
	} `json:"zerver_defaultstream"`
	extraFile
	RealmExports []realmExportRecord `json:"zerver_realmexport"`
	Folders      []folderRecord      `json:"zerver_channelfolder"`
	Domains      []struct {
		ID              int64  `json:"id"`
		Domain          string `json:"domain"`
		AllowSubdomains bool   `json:"allow_subdomains"`
	} `json:"zerver_realmdomain"`
}

// ImportPath imports a Zulip export at path: a directory, or a tarball (.tar.gz or .tar),
// which is first unpacked into a temporary directory beside it.
func ImportPath(ctx context.Context, st storage.Storage, bl blobs.Store, path string, opts ImportOptions) (ImportResult, error) {
	format, err := DetectFormat(path)
	if err != nil {
		return ImportResult{}, err
	}
	switch format {
	case FormatZulipDirectory:
		return ImportDir(ctx, st, bl, path, opts)
	case FormatZulipTarball:
		dir, err := os.MkdirTemp(filepath.Dir(path), "chat-import-")
		if err != nil {
			return ImportResult{}, fmt.Errorf("transfer: import: %w", err)
		}
		defer os.RemoveAll(dir)
		root, err := unpack(ctx, path, dir)
		if err != nil {
			return ImportResult{}, err
		}
		return ImportDir(ctx, st, bl, root, opts)
	}
	return ImportResult{}, fmt.Errorf("%w: %s is a backup archive, not a Zulip export (restore it with RestoreBackup)", ErrCorrupt, path)
}

// ImportDir imports the organization in Zulip's export format under dir (realm.json,
// messages-NNNNNN.json, attachment.json, uploads/, avatars/, emoji/ with their
// records.json) into st, which must hold no organization, and its files into bl (nil:
// files are skipped). It is the entry point of the Slack and Mattermost converters too,
// whose output is this format.
//
// Every id is remapped: the store hands out its own. Users get no password (they set one
// with a password reset, as after Zulip's imports); humans get new API keys, bots keep
// theirs. Messages without rendered_content are rendered.
//
// Memory stays bounded whatever the number of messages: the organization (everything but
// the messages) is written in one transaction, which also reads every message file once to
// check it (references, duplicates, syntax) without writing it; the messages are then
// written one file per transaction, and the scheduled messages and realm.json's reactions,
// which name messages, in a last one. A truncated, corrupted or inconsistent export
// (ErrCorrupt, naming the file and the row) is refused by the first transaction and changes
// nothing in st; the files it had put in bl are removed again. Files are put from inside the
// first transaction (the keys of avatars depend on the new user ids); a transaction the
// store runs again puts the same bytes under the same keys. A failure after the first
// transaction (the store failing, a file changed since it was checked, ctx cancelled)
// returns ErrIncomplete: the store then holds part of the organization.
func ImportDir(ctx context.Context, st storage.Storage, bl blobs.Store, dir string, opts ImportOptions) (res ImportResult, err error) {
	empty, err := Empty(ctx, st)
	if err != nil {
		return res, err
	}
	if !empty {
		return res, ErrNotEmpty
	}
	var rf realmFile
	if err := readJSONFile(filepath.Join(dir, "realm.json"), MaxRealmJSONBytes, &rf); err != nil {
		return res, err
	}
	im := &importer{ctx: ctx, bl: bl, dir: dir, rf: &rf, opts: opts}
	defer func() {
		if err != nil && bl != nil {
			for _, k := range im.put {
				bl.Delete(context.WithoutCancel(ctx), k)
			}
		}
	}()
	err = st.Update(ctx, func(tx storage.Tx) error {
		im.begin(tx)
		return im.run()
	})
	if err != nil {
		return ImportResult{}, err
	}
	if err := im.writeMessages(st); err != nil {
		return ImportResult{}, fmt.Errorf("%w after %d of %d messages: %w", ErrIncomplete, im.messages.len(), im.seen.len(), err)
	}
	opts.Progress.Done()
	return im.res, nil
}

// readJSONFile decodes the JSON file at path, refusing one larger than limit.
func readJSONFile(path string, limit int64, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > limit {
		return fmt.Errorf("%w: %s is %d bytes (at most %d)", ErrCorrupt, filepath.Base(path), fi.Size(), limit)
	}
	dec := json.NewDecoder(io.LimitReader(f, limit))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, filepath.Base(path), err)
	}
	return nil
}

// corrupt is the error of an inconsistent row.
func corrupt(file, format string, a ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrCorrupt, file, fmt.Sprintf(format, a...))
}

// importer is one import's transaction and id maps (old id -> new id).
type importer struct {
	ctx  context.Context
	tx   storage.Tx
	bl   blobs.Store
	dir  string
	rf   *realmFile
	opts ImportOptions
	res  ImportResult
	put  []string // the blob keys put, kept across the store's runs of a transaction

	users    map[int64]users.ID
	groups   map[int64]users.GroupID
	channels map[int64]channels.ID
	// messages maps the messages written; seen holds the ids of the messages checked
	// (checkMessages).
	messages, seen idRuns
	// messageFiles is the number of message files checked.
	messageFiles int
	// links are the attachments of each old message id, linked as the message is written.
	links      map[int64][]uploads.ID
	recipients map[int64]zulipdir.Recipient
	huddles    map[int64][]users.ID // huddle recipient id -> participants
	clients    map[int64]string
	anonymous  map[int64]users.GroupSetting // every group's direct members and subgroups
	folders    map[int64]channels.FolderID
	// systemGroups are the system groups by name, once the groups exist.
	systemGroups map[string]users.GroupID
	// pendingRealm is the organization as first stored, completed by realmGroupSettings.
	pendingRealm realms.Realm
}

// begin starts the first transaction (again, when the store runs it again) with empty maps.
func (im *importer) begin(tx storage.Tx) {
	im.tx, im.res = tx, ImportResult{}
	im.users, im.groups, im.channels = map[int64]users.ID{}, map[int64]users.GroupID{}, map[int64]channels.ID{}
	im.recipients, im.huddles, im.clients = map[int64]zulipdir.Recipient{}, map[int64][]users.ID{}, map[int64]string{}
	im.anonymous, im.folders, im.systemGroups = nil, nil, nil
	im.messages, im.seen, im.links, im.messageFiles = idRuns{}, idRuns{}, map[int64][]uploads.ID{}, 0
	im.pendingRealm = realms.Realm{}
}

// run writes the organization but the messages, checking the message files on the way.
func (im *importer) run() error {
	steps := []func() error{
		im.realm, im.importUsers, im.importGroups, im.ensureSystemGroups, im.importFolders, im.importChannels, im.realmGroupSettings,
		im.importRecipients, im.importSubscriptions, im.importProfiles, im.importEmoji,
		im.checkMessages, im.importAttachments, im.importDrafts, im.checkScheduled, im.importExtra, im.importRealmExports, im.importFiles,
	}
	for _, step := range steps {
		if err := im.ctx.Err(); err != nil {
			return err
		}
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// newAPIKey is a random key of users.APIKeyLength letters and digits.
func newAPIKey() (string, error) {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, users.APIKeyLength)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b), nil
}
