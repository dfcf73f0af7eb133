package conversations

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/narrows"
	"github.com/teamchat/chat/storage"
)

// Limits of GET /messages.
const (
	MaxMessagesPerFetch = 5000
	MaxNarrowLength     = 100
	// largerThanMaxMessageID is the anchor reported for anchor=newest (Zulip's value).
	largerThanMaxMessageID = 10000000000000000
)

// NarrowTerm is one term of a narrow as the client sent it (narrows.Term).
type NarrowTerm = narrows.Term

// GetMessagesParams are the parameters of GET /messages.
type GetMessagesParams struct {
	// Anchor is "newest", "oldest", "first_unread" or a message id; "" requires MessageIDs.
	Anchor        string
	NumBefore     int
	NumAfter      int
	IncludeAnchor *bool // default true
	Narrow        []NarrowTerm
	// ClientGravatar and ApplyMarkdown default to true.
	ClientGravatar      *bool
	ApplyMarkdown       *bool
	AllowEmptyTopicName bool
	// MessageIDs fetches exactly these messages (no anchor).
	MessageIDs []messages.ID
}

// GetMessagesResult is the response of GET /messages. The anchor fields are absent when
// MessageIDs were given.
type GetMessagesResult struct {
	Messages       []MessageRecord `json:"messages"`
	Anchor         *int64          `json:"anchor,omitempty"`
	FoundAnchor    *bool           `json:"found_anchor,omitempty"`
	FoundOldest    *bool           `json:"found_oldest,omitempty"`
	FoundNewest    *bool           `json:"found_newest,omitempty"`
	HistoryLimited bool            `json:"history_limited"`
}

func orTrue(b *bool) bool { return b == nil || *b }

// checkRange bounds the range and the narrow of a request around an anchor.
func (p GetMessagesParams) checkRange() error {
	if p.NumBefore < 0 || p.NumAfter < 0 {
		return engine.BadRequest("Invalid num_before or num_after")
	}
	if p.NumBefore+p.NumAfter > MaxMessagesPerFetch {
		return engine.BadRequest("Too many messages requested (maximum %d).", MaxMessagesPerFetch)
	}
	if len(p.Narrow) > MaxNarrowLength {
		return engine.BadRequest("narrow is too long (limit: %d items)", MaxNarrowLength)
	}
	return nil
}

// GetMessages returns the messages around an anchor that match the narrow and that the actor
// may read: those they received, and the history of channels they may read.
func (s *Service) GetMessages(ctx context.Context, actor engine.Actor, p GetMessagesParams) (GetMessagesResult, error) {
	if err := p.checkRange(); err != nil {
		return GetMessagesResult{}, err
	}
	if len(p.MessageIDs) > MaxMessagesPerFetch {
		return GetMessagesResult{}, engine.BadRequest("Too many messages requested (maximum %d).", MaxMessagesPerFetch)
	}
	if p.MessageIDs == nil && p.Anchor == "" {
		return GetMessagesResult{}, engine.MissingArgument("anchor")
	}
	if p.MessageIDs != nil && p.Anchor != "" {
		return GetMessagesResult{}, engine.BadRequest("Unsupported parameter combination: anchor, message_ids")
	}
	view := messageView{applyMarkdown: orTrue(p.ApplyMarkdown), clientGravatar: orTrue(p.ClientGravatar), emptyTopicName: p.AllowEmptyTopicName}
	var res GetMessagesResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx, me, w := o.Tx, o.Me, o.World()
		view.emptyTopicLabel = w.Org().EmptyTopicDisplayName
		terms, err := narrows.Resolve(w, tx.UserTopics(), me, p.Narrow)
		if err != nil {
			return err
		}
		q := storage.MessageQuery{User: me.ID, HistoryChannels: narrows.HistoryChannels(w, me, terms), Terms: terms}
		var matches []storage.MessageMatch
		if p.MessageIDs != nil {
			matches, err = fetchIDs(tx.Messages(), q, p.MessageIDs)
		} else {
			matches, err = fetchAround(tx.Messages(), q, p, &res)
		}
		if err != nil {
			return err
		}
		search, searching := narrowSearch(terms)
		reactions, err := reactionsOf(tx.Messages(), matches)
		if err != nil {
			return err
		}
		res.Messages = make([]MessageRecord, len(matches))
		for i, m := range matches {
			rec := messageRecord(w, m.Message, view)
			if l, ok := reactions[m.Message.ID]; ok {
				rec.Reactions = l
			}
			flags := m.Flags
			if !m.Received {
				flags = messages.FlagRead | messages.FlagHistorical
			}
			names := flags.Names()
			rec.Flags = &names
			if searching {
				mc, ms := search.Highlight(m.Message.Rendered), search.HighlightTopic(rec.Subject)
				rec.MatchContent, rec.MatchSubject = &mc, &ms
			}
			res.Messages[i] = rec
		}
		return nil
	})
	if err != nil {
		return GetMessagesResult{}, err
	}
	return res, nil
}

// fetchIDs returns the listed messages the query lets the user read.
func fetchIDs(r storage.MessageReader, q storage.MessageQuery, ids []messages.ID) ([]storage.MessageMatch, error) {
	var out []storage.MessageMatch
	want := map[messages.ID]bool{}
	for _, id := range ids {
		want[id] = true
	}
	for id := range want {
		q.MinID, q.MaxID, q.Limit, q.Newest = id, id, 1, false
		got, err := r.Query(q)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	sortMatches(out)
	return out, nil
}

func sortMatches(l []storage.MessageMatch) {
	slices.SortFunc(l, func(a, b storage.MessageMatch) int { return cmp.Compare(a.Message.ID, b.Message.ID) })
}

// fetchAround resolves the anchor and reads num_before messages before it and num_after after
// it, setting the anchor fields of res the way Zulip does.
func fetchAround(r storage.MessageReader, q storage.MessageQuery, p GetMessagesParams, res *GetMessagesResult) ([]storage.MessageMatch, error) {
	var (
		anchor              int64
		toLeft, toRight     bool
		includeAnchor       = orTrue(p.IncludeAnchor)
		numBefore, numAfter = p.NumBefore, p.NumAfter
	)
	switch p.Anchor {
	case "newest":
		anchor, toRight = largerThanMaxMessageID, true
	case "oldest":
		anchor, toLeft = 0, true
	case "first_unread":
		uq := q
		uq.Terms = append(append([]messages.Term{}, q.Terms...), messages.Term{Operator: messages.OpIs, Text: messages.IsUnread})
		uq.Limit = 1
		first, err := r.Query(uq)
		if err != nil {
			return nil, err
		}
		if len(first) == 0 {
			anchor, toRight = largerThanMaxMessageID, true
		} else {
			anchor = int64(first[0].Message.ID)
		}
	default:
		n, err := strconv.ParseInt(strings.Trim(p.Anchor, `"`), 10, 64)
		if err != nil || n < 0 {
			return nil, engine.InvalidArgument("anchor", "")
		}
		anchor = min(n, largerThanMaxMessageID)
	}
	if toRight {
		numAfter = 0
	}
	var before, at, after []storage.MessageMatch
	if numBefore > 0 && anchor > 0 {
		bq := q
		bq.MinID, bq.MaxID, bq.Newest, bq.Limit = 0, messages.ID(anchor-1), true, numBefore
		var err error
		if before, err = r.Query(bq); err != nil {
			return nil, err
		}
	}
	if !toRight {
		aq := q
		aq.MinID, aq.MaxID, aq.Newest, aq.Limit = messages.ID(anchor), 0, false, numAfter+1
		got, err := r.Query(aq)
		if err != nil {
			return nil, err
		}
		if len(got) > 0 && int64(got[0].Message.ID) == anchor {
			at, got = got[:1], got[1:]
		}
		if len(got) > numAfter {
			got = got[:numAfter]
		}
		after = got
	}
	foundAnchor := len(at) == 1
	foundOldest := toLeft || len(before) < numBefore
	foundNewest := toRight || len(after) < numAfter
	res.Anchor, res.FoundAnchor, res.FoundOldest, res.FoundNewest = &anchor, &foundAnchor, &foundOldest, &foundNewest
	out := append([]storage.MessageMatch{}, before...)
	if includeAnchor {
		out = append(out, at...)
	}
	return append(out, after...), nil
}

// narrowSearch merges the narrow's search terms into the one search whose words are
// highlighted, and reports whether the narrow has a search term (Zulip then adds
// match_content and match_subject to every message).
func narrowSearch(terms []messages.Term) (messages.Search, bool) {
	var parts []string
	found := false
	for _, t := range terms {
		if t.Operator != messages.OpSearch {
			continue
		}
		found = true
		if !t.Negated {
			parts = append(parts, t.Text)
		}
	}
	return messages.ParseSearch(strings.Join(parts, " ")), found
}

// GetMessageParams are the parameters of GET /messages/{message_id}.
type GetMessageParams struct {
	MessageID           messages.ID
	ApplyMarkdown       *bool // default true
	AllowEmptyTopicName bool
}

// GetMessageResult holds one message and its Markdown source.
type GetMessageResult struct {
	RawContent string        `json:"raw_content"`
	Message    MessageRecord `json:"message"`
}

// GetMessage returns one message the actor may read; others are "Invalid message(s)".
func (s *Service) GetMessage(ctx context.Context, actor engine.Actor, p GetMessageParams) (GetMessageResult, error) {
	var res GetMessageResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		tx, me, w := o.Tx, o.Me, o.World()
		m, row, err := narrows.ReadableMessage(w, tx.Messages(), me, p.MessageID)
		if err != nil {
			return err
		}
		flags := messages.FlagRead | messages.FlagHistorical
		if row != nil {
			flags = row.Flags
		}
		rec := messageRecord(w, m, messageView{
			applyMarkdown: orTrue(p.ApplyMarkdown), emptyTopicName: p.AllowEmptyTopicName,
			emptyTopicLabel: w.Org().EmptyTopicDisplayName,
		})
		names := flags.Names()
		rec.Flags = &names
		reactions, err := tx.Messages().Reactions([]messages.ID{m.ID})
		if err != nil {
			return err
		}
		if l, ok := reactionRecords(reactions)[m.ID]; ok {
			rec.Reactions = l
		}
		res = GetMessageResult{RawContent: m.Content, Message: rec}
		return nil
	})
	if err != nil {
		return GetMessageResult{}, err
	}
	return res, nil
}
