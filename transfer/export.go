package transfer

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"slices"

	"github.com/teamchat/chat/blobs"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// ExportType is what an export holds, as Zulip's RealmExport.export_type.
type ExportType int

// The export types (Zulip's values).
const (
	// ExportPublic holds the public data only: no direct messages and no messages of
	// private channels.
	ExportPublic ExportType = 1
	// ExportFullWithConsent adds the private messages of the users who allow it (their
	// allow_private_data_export setting): the direct and private-channel messages such a user
	// sent or received, with only the consenting users' rows of them.
	ExportFullWithConsent ExportType = 2
	// ExportFull holds everything.
	ExportFull ExportType = 3
)

// ParseExportType reads "public", "full-with-consent" or "full".
func ParseExportType(s string) (ExportType, error) {
	switch s {
	case "public":
		return ExportPublic, nil
	case "full-with-consent", "full_with_consent":
		return ExportFullWithConsent, nil
	case "full", "full-without-consent", "full_without_consent":
		return ExportFull, nil
	}
	return 0, fmt.Errorf("transfer: unknown export type %q (want public, full-with-consent or full)", s)
}

// DefaultExportBatch is how many messages a messages-NNNNNN.json file (and a read
// transaction of the export) holds, as Zulip's MESSAGE_BATCH_CHUNK_SIZE.
const DefaultExportBatch = 1000

// ExportOptions configure an export.
type ExportOptions struct {
	Type ExportType // 0: ExportFull
	// Batch is the number of messages per file; 0: DefaultExportBatch.
	Batch    int
	Progress *Progress
}

// ExportResult counts what an export wrote.
type ExportResult struct {
	Users, Channels, Messages, Files int64
}

// Export writes the organization of st (and the files of bl; nil: none) in Zulip's export
// format to w as a gzip-compressed tarball whose files lie under one directory
// (zulip-export-XXXXXXXX/), as Zulip's export tarballs do.
func Export(ctx context.Context, st storage.Storage, bl blobs.Store, w io.Writer, opts ExportOptions) (ExportResult, error) {
	var b [4]byte
	_, _ = rand.Read(b[:])
	s := newTarSink(w, "zulip-export-"+hex.EncodeToString(b[:]))
	res, err := export(ctx, st, bl, s, opts)
	if err != nil {
		return res, err
	}
	return res, s.close()
}

// ExportDir writes the export as files under dir (created when missing).
func ExportDir(ctx context.Context, st storage.Storage, bl blobs.Store, dir string, opts ExportOptions) (ExportResult, error) {
	return export(ctx, st, bl, dirSink{dir: dir}, opts)
}

// exporter is one export's state: the small tables, read once, and the ids it hands out.
type exporter struct {
	ctx  context.Context
	st   storage.Storage
	bl   blobs.Store
	out  sink
	opts ExportOptions
	res  ExportResult

	org       orgTables
	consents  map[users.ID]bool
	public    map[channels.ID]bool // channels whose messages every export type holds
	clients   map[string]int64
	huddles   map[string]int64 // participants' key -> huddle id
	huddleMem map[int64][]users.ID
	// Recipient ids: personal ones are the user's id, then the channels', then the huddles'.
	channelBase, huddleBase int64
}

func export(ctx context.Context, st storage.Storage, bl blobs.Store, out sink, opts ExportOptions) (ExportResult, error) {
	if opts.Type == 0 {
		opts.Type = ExportFull
	}
	if opts.Batch <= 0 {
		opts.Batch = DefaultExportBatch
	}
	e := &exporter{ctx: ctx, st: st, bl: bl, out: out, opts: opts, clients: map[string]int64{},
		huddles: map[string]int64{}, huddleMem: map[int64][]users.ID{}}
	if err := st.View(ctx, e.org.read); err != nil {
		return e.res, fmt.Errorf("transfer: export: %w", err)
	}
	if !e.org.hasRealm {
		return e.res, fmt.Errorf("transfer: export: the store holds no organization")
	}
	e.prepare()
	if err := e.messages(); err != nil {
		return e.res, err
	}
	e.addHuddlesOfDrafts()
	if err := e.realmJSON(); err != nil {
		return e.res, err
	}
	if err := e.files(); err != nil {
		return e.res, err
	}
	opts.Progress.Done()
	return e.res, nil
}

// prepare decides the recipients' ids, the consents and the channels every type exports.
func (e *exporter) prepare() {
	var maxUser, maxChannel int64
	e.consents = map[users.ID]bool{}
	for _, u := range e.org.users {
		maxUser = max(maxUser, int64(u.ID))
		if v, _ := e.org.settings[u.ID].Value("allow_private_data_export").(bool); v {
			e.consents[u.ID] = true
		}
	}
	e.public = map[channels.ID]bool{}
	for _, c := range e.org.channels {
		maxChannel = max(maxChannel, int64(c.ID))
		if !c.InviteOnly {
			e.public[c.ID] = true
		}
	}
	e.channelBase, e.huddleBase = maxUser, maxUser+maxChannel
	e.res.Users, e.res.Channels = int64(len(e.org.users)), int64(len(e.org.channels))
}

// huddle returns the huddle id of a group of participants, numbering new ones.
func (e *exporter) huddle(participants []users.ID) int64 {
	key := fmt.Sprint(participants)
	if id, ok := e.huddles[key]; ok {
		return id
	}
	id := int64(len(e.huddles) + 1)
	e.huddles[key] = id
	e.huddleMem[id] = slices.Clone(participants)
	return id
}

// directRecipient is the recipient id of a direct message among participants (the sender
// included) sent by sender: the other user's personal recipient for two, the sender's own
// for one, a huddle for more.
func (e *exporter) directRecipient(sender users.ID, participants []users.ID) int64 {
	switch len(participants) {
	case 0, 1:
		return int64(sender)
	case 2:
		if participants[0] == sender {
			return int64(participants[1])
		}
		return int64(participants[0])
	}
	return e.huddleBase + e.huddle(participants)
}

func (e *exporter) client(name string) int64 {
	if id, ok := e.clients[name]; ok {
		return id
	}
	id := int64(len(e.clients) + 1)
	e.clients[name] = id
	return id
}

func (e *exporter) addHuddlesOfDrafts() {
	for _, d := range e.org.drafts {
		if d.Type == "private" && len(d.To) > 1 {
			ids := make([]users.ID, 0, len(d.To)+1)
			for _, t := range d.To {
				ids = append(ids, users.ID(t))
			}
			ids = append(ids, d.UserID)
			slices.Sort(ids)
			ids = slices.Compact(ids)
			if len(ids) > 2 {
				e.huddle(ids)
			}
		}
	}
	for _, s := range e.org.scheduled {
		if s.IsDirect() && len(s.Recipients) > 2 {
			e.huddle(s.Recipients)
		}
	}
}
