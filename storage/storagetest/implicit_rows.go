package storagetest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// implicitWorld is the differential case of implicit rows (storage/receivers.go): two stores
// of the backend under test receive the same random operations, except that the subject
// stores each channel message with storage.CreateForSubscribers and the reference with
// Create and a row for every recipient, computed from the model of who receives each
// channel. Every read of rows must then answer the same on both.
type implicitWorld struct {
	t            *testing.T
	rnd          *rand.Rand
	subject, ref storage.Storage
	u            []users.ID
	c            []channels.ID
	subscribed   map[[2]int64]bool
	inactive     map[users.ID]bool
	ids          []messages.ID
	direct       map[messages.ID]bool
	newest       messages.ID
}

func testImplicitRows(t *testing.T, open Opener) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			w := newImplicitWorld(t, open, seed)
			for step := range 160 {
				w.step(step)
				if step%8 == 7 {
					w.compare(fmt.Sprintf("after step %d", step))
				}
			}
			w.compare("at the end")
		})
	}
	t.Run("a batch above unread rows", func(t *testing.T) {
		// The rows left unread at or below After stay unread: no mark moves over them.
		w := newImplicitWorld(t, open, 7)
		for n := range 8 {
			w.sendToChannel(n)
		}
		for _, u := range w.u[:4] {
			q := storage.MarkReadQuery{User: u, After: w.ids[3], Limit: 2}
			w.both("MarkRead after unread rows", func(tx storage.Tx, _ bool) (any, error) { return tx.Messages().MarkRead(q) })
		}
		w.compare("after the batches")
	})
	t.Run("batches over explicit rows outside the intervals", func(t *testing.T) {
		// u0's explicit unread rows of messages it does not receive (between its two
		// intervals of north, and in east, which nobody receives) are read, never dropped.
		w := newImplicitWorld(t, open, 8)
		u, north, east := w.u[0], w.c[0], w.c[2]
		msg := func(c channels.ID) messages.Message {
			return messages.Message{SenderID: w.u[1], ChannelID: c, Topic: "t", Content: "x", Rendered: "<p>x</p>", Timestamp: 1700000000, Client: "test"}
		}
		sender := messages.UserMessage{UserID: w.u[1], Flags: messages.FlagRead}
		w.send(msg(north), []messages.UserMessage{sender})
		w.subscribe(u, north, false)
		w.send(msg(north), []messages.UserMessage{sender, {UserID: u}})
		w.send(msg(east), []messages.UserMessage{sender, {UserID: u}})
		w.subscribe(u, north, true)
		w.send(msg(north), []messages.UserMessage{sender})
		w.markReadInBatches(storage.MarkReadQuery{User: u, Limit: 2})
		w.compare("after the batches")
	})
}

// newImplicitWorld opens the two stores of a differential run and seeds them.
func newImplicitWorld(t *testing.T, open Opener, seed uint64) *implicitWorld {
	w := &implicitWorld{t: t, rnd: rand.New(rand.NewPCG(seed, 42)), subject: open(t), ref: open(t),
		subscribed: map[[2]int64]bool{}, inactive: map[users.ID]bool{}, direct: map[messages.ID]bool{}}
	w.seed()
	return w
}

// both runs fn in a write transaction of each store; what the two return must be equal.
func (w *implicitWorld) both(what string, fn func(tx storage.Tx, subject bool) (any, error)) {
	w.t.Helper()
	var got [2]any
	for i, s := range []storage.Storage{w.subject, w.ref} {
		mustUpdate(w.t, s, func(tx storage.Tx) (err error) {
			got[i], err = fn(tx, i == 0)
			return err
		})
	}
	wantEqual(w.t, what+" (-subject +reference)", got[0], got[1], cmpopts.EquateEmpty())
}

func (w *implicitWorld) seed() {
	w.both("seed", func(tx storage.Tx, _ bool) (any, error) {
		var us []users.ID
		for i := range 6 {
			id, err := tx.Users().Create(newUser(700 + i))
			if err != nil {
				return nil, err
			}
			us = append(us, id)
		}
		var cs []channels.ID
		for _, name := range []string{"north", "south", "east"} {
			id, err := tx.Channels().Create(fullChannel(name))
			if err != nil {
				return nil, err
			}
			cs = append(cs, id)
		}
		w.u, w.c = us, cs
		return []any{us, cs}, nil
	})
	for _, u := range w.u[:4] {
		for _, c := range w.c[:2] {
			w.subscribe(u, c, true)
		}
	}
}

func (w *implicitWorld) subscribe(u users.ID, c channels.ID, active bool) {
	w.subscribed[[2]int64{int64(u), int64(c)}] = active
	w.both("subscribe", func(tx storage.Tx, _ bool) (any, error) {
		return nil, tx.Subscriptions().Put([]channels.Subscription{{UserID: u, ChannelID: c, Active: active, Color: "#c2c2c2"}})
	})
}

func (w *implicitWorld) setActive(u users.ID, active bool) {
	w.inactive[u] = !active
	w.both("user activity", func(tx storage.Tx, _ bool) (any, error) {
		usr, err := tx.Users().Get(u)
		if err != nil {
			return nil, err
		}
		usr.IsActive = active
		return nil, tx.Users().Update(usr)
	})
}

// receivers are the users receiving c in the model, ascending.
func (w *implicitWorld) receivers(c channels.ID) []users.ID {
	var out []users.ID
	for _, u := range w.u {
		if w.subscribed[[2]int64{int64(u), int64(c)}] && !w.inactive[u] {
			out = append(out, u)
		}
	}
	return out
}

func (w *implicitWorld) pickUser() users.ID       { return w.u[w.rnd.IntN(len(w.u))] }
func (w *implicitWorld) pickChannel() channels.ID { return w.c[w.rnd.IntN(len(w.c))] }

// pickIDs is a random handful of the messages sent so far, and an unknown id at times.
func (w *implicitWorld) pickIDs() []messages.ID {
	var out []messages.ID
	for range 1 + w.rnd.IntN(6) {
		if len(w.ids) == 0 || w.rnd.IntN(10) == 0 {
			out = append(out, 999999)
			continue
		}
		out = append(out, w.ids[w.rnd.IntN(len(w.ids))])
	}
	return out
}

var implicitFlagChoices = []messages.Flags{messages.FlagRead, messages.FlagStarred, messages.FlagMentioned,
	messages.FlagRead | messages.FlagStarred, messages.FlagHasAlertWord, messages.FlagCollapsed}

func (w *implicitWorld) pickFlags() messages.Flags {
	return implicitFlagChoices[w.rnd.IntN(len(implicitFlagChoices))]
}

// step runs one random operation on both stores.
func (w *implicitWorld) step(n int) {
	switch k := w.rnd.IntN(20); {
	case k < 7:
		w.sendToChannel(n)
	case k < 8:
		w.sendDirect(n)
	case k < 10:
		w.subscribe(w.pickUser(), w.pickChannel(), w.rnd.IntN(3) > 0)
	case k < 11:
		w.setActive(w.pickUser(), w.rnd.IntN(2) == 0)
	case k < 14:
		u, ids, add, remove := w.pickUser(), w.pickIDs(), w.pickFlags(), messages.Flags(0)
		if w.rnd.IntN(2) == 0 {
			add, remove = 0, add
		}
		w.both("SetFlags", func(tx storage.Tx, _ bool) (any, error) { return tx.Messages().SetFlags(u, ids, add, remove) })
	case k < 17:
		w.markRead()
	default:
		w.rareWrite()
	}
}

func (w *implicitWorld) sendToChannel(n int) {
	c, sender := w.pickChannel(), w.pickUser()
	m := messages.Message{SenderID: sender, ChannelID: c, Topic: fmt.Sprintf("topic %d", w.rnd.IntN(3)),
		Content: fmt.Sprintf("message %d", n), Rendered: "<p>m</p>", Timestamp: 1700000000 + int64(n), Client: "test"}
	rows := []messages.UserMessage{{UserID: sender, Flags: messages.FlagRead}}
	for range w.rnd.IntN(3) {
		u := w.pickUser()
		if !slices.ContainsFunc(rows, func(r messages.UserMessage) bool { return r.UserID == u }) {
			rows = append(rows, messages.UserMessage{UserID: u, Flags: w.pickFlags()})
		}
	}
	w.send(m, rows)
}

// send stores m in both stores with rows, to its channel's receivers in the model.
func (w *implicitWorld) send(m messages.Message, rows []messages.UserMessage) {
	c := m.ChannelID
	recipients := w.receivers(c)
	w.both("send to a channel", func(tx storage.Tx, subject bool) (any, error) {
		var err error
		if subject {
			w.newest, _, err = storage.CreateForSubscribers(tx.Messages(), m, recipients, rows)
		} else {
			w.newest, err = tx.Messages().Create(m, storage.FullRows(recipients, rows))
		}
		return w.newest, err
	})
	w.ids = append(w.ids, w.newest)
}

func (w *implicitWorld) sendDirect(n int) {
	a, b := w.pickUser(), w.pickUser()
	m := messages.Message{SenderID: a, Recipients: messages.Participants(a, []users.ID{b}),
		Content: fmt.Sprintf("direct %d", n), Rendered: "<p>d</p>", Timestamp: 1700000000 + int64(n), Client: "test"}
	rows := storage.FullRows(m.Recipients, []messages.UserMessage{{UserID: a, Flags: messages.FlagRead}})
	w.both("send a direct message", func(tx storage.Tx, _ bool) (n any, err error) {
		w.newest, err = tx.Messages().Create(m, rows)
		return w.newest, err
	})
	w.ids = append(w.ids, w.newest)
	w.direct[w.newest] = true
}

func (w *implicitWorld) markRead() {
	q := storage.MarkReadQuery{User: w.pickUser()}
	switch w.rnd.IntN(5) {
	case 0:
		q.ChannelID = w.pickChannel()
	case 1:
		q.ChannelID = w.pickChannel()
		topic := fmt.Sprintf("TOPIC %d", w.rnd.IntN(3))
		q.Topic = &topic
	case 2:
		if len(w.ids) > 0 && w.rnd.IntN(2) == 0 {
			q.After = w.ids[w.rnd.IntN(len(w.ids))]
		}
		if w.rnd.IntN(2) == 0 {
			q.ChannelID = w.pickChannel()
		}
		q.Limit = 1 + w.rnd.IntN(5)
	case 3:
		// MarkAllAsRead's walk: batches, each after the last one's newest message.
		q.Limit = 1 + w.rnd.IntN(3)
		w.markReadInBatches(q)
		return
	}
	w.both("MarkRead", func(tx storage.Tx, _ bool) (any, error) { return tx.Messages().MarkRead(q) })
}

// markReadInBatches is MarkAllAsRead's walk: batches of q.Limit, each after the last one's
// newest message, until one marks nothing.
func (w *implicitWorld) markReadInBatches(q storage.MarkReadQuery) {
	w.both("MarkRead in batches", func(tx storage.Tx, _ bool) (any, error) {
		var all [][]messages.ID
		q := q
		for {
			got, err := tx.Messages().MarkRead(q)
			if err != nil || len(got) == 0 {
				return all, err
			}
			all = append(all, got)
			q.After = got[len(got)-1]
		}
	})
}

// rareWrite is one of the writes a send never makes: rows put or deleted, messages moved
// or deleted.
func (w *implicitWorld) rareWrite() {
	ids := w.pickIDs()
	switch w.rnd.IntN(4) {
	case 0:
		var rows []messages.UserMessage
		for _, id := range ids {
			if id != 999999 {
				rows = append(rows, messages.UserMessage{UserID: w.pickUser(), MessageID: id, Flags: messages.FlagRead | messages.FlagHistorical})
			}
		}
		w.both("PutRows", func(tx storage.Tx, _ bool) (any, error) { return nil, tx.Messages().PutRows(rows) })
	case 1:
		us := []users.ID{w.pickUser(), w.pickUser()}
		w.both("DeleteRows", func(tx storage.Tx, _ bool) (any, error) { return nil, tx.Messages().DeleteRows(us, ids) })
	case 2:
		ids = slices.DeleteFunc(ids, func(id messages.ID) bool { return w.direct[id] })
		c, topic := w.pickChannel(), fmt.Sprintf("topic %d", w.rnd.IntN(3))
		entry := messages.EditHistoryEntry{UserID: w.u[0], Topic: &topic}
		w.both("Move", func(tx storage.Tx, _ bool) (any, error) { return nil, tx.Messages().Move(ids, c, topic, entry, 0) })
	default:
		w.both("Delete", func(tx storage.Tx, _ bool) (any, error) { return nil, tx.Messages().Delete(ids) })
		w.ids = slices.DeleteFunc(w.ids, func(id messages.ID) bool { return slices.Contains(ids, id) })
	}
}

// observe is everything the store answers about rows.
func (w *implicitWorld) observe(s storage.Storage) map[string]any {
	out := map[string]any{}
	all := append(slices.Clone(w.ids), 999999) // far apart: read as a set
	var everyOther []messages.ID               // close together: read as a range, less the others
	for i := 0; i < len(w.ids); i += 2 {
		everyOther = append(everyOther, w.ids[i])
	}
	unread := []messages.Term{{Operator: messages.OpIs, Text: messages.IsUnread}}
	starred := []messages.Term{{Operator: messages.OpIs, Text: messages.IsStarred}}
	mustView(w.t, s, func(tx storage.ReadTx) error {
		mr := tx.Messages()
		var err error
		if out["Rows"], err = mr.Rows(all); err != nil {
			return err
		}
		if out["Rows of every other"], err = mr.Rows(everyOther); err != nil {
			return err
		}
		// A list of close ids is read as a range: the rows of the others must not come with it.
		wantEqual(w.t, "Rows of every other message", rowsOf(out["Rows"], everyOther), out["Rows of every other"], cmpopts.EquateEmpty())
		for _, u := range w.u {
			key := fmt.Sprint("user ", u, " ")
			var errs [12]error
			out[key+"UserRows"], errs[0] = mr.UserRows(u, all)
			out[key+"UserRows of every other"], errs[11] = mr.UserRows(u, everyOther)
			wantEqual(w.t, key+"UserRows of every other message", rowsOf(out[key+"UserRows"], everyOther), out[key+"UserRows of every other"], cmpopts.EquateEmpty())
			out[key+"unread rows"], errs[1] = mr.UserRowsWhere(u, 0, messages.FlagRead)
			out[key+"starred rows"], errs[2] = mr.UserRowsWhere(u, messages.FlagStarred, 0)
			out[key+"read rows"], errs[8] = mr.UserRowsWhere(u, messages.FlagRead, 0)
			out[key+"unstarred rows"], errs[9] = mr.UserRowsWhere(u, 0, messages.FlagStarred)
			out[key+"read unstarred rows"], errs[10] = mr.UserRowsWhere(u, messages.FlagRead, messages.FlagStarred)
			out[key+"MaxReceivedID"], errs[3] = mr.MaxReceivedID(u)
			out[key+"Query"], errs[4] = mr.Query(storage.MessageQuery{User: u, Newest: true, Limit: 1000})
			out[key+"Query is:unread"], errs[5] = mr.Query(storage.MessageQuery{User: u, Terms: unread, Limit: 3})
			out[key+"Query is:starred"], errs[6] = mr.Query(storage.MessageQuery{User: u, Terms: starred, Newest: true, Limit: 1000})
			out[key+"Query with history"], errs[7] = mr.Query(storage.MessageQuery{User: u, HistoryChannels: w.c[:1], Newest: true, Limit: 1000})
			for _, c := range w.c {
				out[fmt.Sprint(key, "Topics of ", c)], err = mr.Topics(c, u, false)
				if err != nil {
					return err
				}
			}
			for _, e := range errs {
				if e != nil {
					return e
				}
			}
		}
		return nil
	})
	return out
}

func (w *implicitWorld) compare(when string) {
	w.t.Helper()
	wantEqual(w.t, "rows "+when+" (-subject +reference)", w.observe(w.subject), w.observe(w.ref), cmpopts.EquateEmpty())
}

// rowsOf keeps the rows (a []messages.UserMessage) of the messages of list.
func rowsOf(rows any, list []messages.ID) any {
	var out []messages.UserMessage
	for _, r := range rows.([]messages.UserMessage) {
		if slices.Contains(list, r.MessageID) {
			out = append(out, r)
		}
	}
	return out
}
