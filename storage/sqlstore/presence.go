package sqlstore

import (
	"database/sql"
	"fmt"
	"slices"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// alertWordTx is the alert-words accessor: one row per word, numbered by word_order (its place in the list).
type alertWordTx struct{ t *txn }

func (a alertWordTx) Get(id users.ID) ([]string, error) {
	out, err := scanAll(a.t, func(r *sql.Rows) (string, error) {
		var w string
		err := r.Scan(&w)
		return w, err
	}, "SELECT word FROM alert_words WHERE user_id = ? ORDER BY word_order", id)
	if out == nil && err == nil {
		out = []string{}
	}
	return out, err
}

// alertWord is one row of alert_words, as the cached list keeps it.
type alertWord struct {
	user users.ID
	word string
}

// All is every user's alert words, from the cached list (each message asks for them).
func (a alertWordTx) All() (map[users.ID][]string, error) {
	all, err := cachedList(a.t, alertWordsTable, &a.t.cache.alertWords, nil, func() ([]alertWord, error) {
		return scanAll(a.t, func(r *sql.Rows) (alertWord, error) {
			var x alertWord
			err := r.Scan(&x.user, &x.word)
			return x, err
		}, "SELECT user_id, word FROM alert_words ORDER BY user_id, word_order")
	})
	if err != nil {
		return nil, err
	}
	out := map[users.ID][]string{}
	for _, r := range all {
		out[r.user] = append(out[r.user], r.word)
	}
	return out, nil
}

func (a alertWordTx) Set(id users.ID, words []string) error {
	if err := a.t.bump(alertWordsTable); err != nil {
		return err
	}
	if _, err := a.t.exec("DELETE FROM alert_words WHERE user_id = ?", id); err != nil {
		return err
	}
	rows := make([][]any, len(words))
	for i, w := range words {
		rows[i] = []any{id, i, w}
	}
	return insertRows(a.t, "INSERT INTO alert_words (user_id, word_order, word)", 3, rows, "")
}

// presenceTx is the presence accessor.
type presenceTx struct{ t *txn }

const presenceColumns = "user_id, last_active_time, last_connected_time, last_update_id"

func scanPresence(r *sql.Rows) (users.Presence, error) {
	var p users.Presence
	var active, connected sql.NullInt64
	err := r.Scan(&p.UserID, &active, &connected, &p.LastUpdateID)
	p.LastActiveTime, p.LastConnectedTime = fromNanos(active), fromNanos(connected)
	return p, err
}

func (a presenceTx) Get(id users.ID) (users.Presence, error) {
	list, err := scanAll(a.t, scanPresence, "SELECT "+presenceColumns+" FROM presences WHERE user_id = ?", id)
	if err != nil {
		return users.Presence{}, err
	}
	if len(list) == 0 {
		return users.Presence{}, notFound("presence of user", id)
	}
	return list[0], nil
}

func (a presenceTx) List(f storage.PresenceFilter) ([]users.Presence, error) {
	q := "SELECT " + presenceColumns + " FROM presences WHERE last_update_id > ?"
	args := []any{f.AfterUpdateID}
	if !f.ConnectedSince.IsZero() {
		q += " AND last_connected_time >= ?"
		args = append(args, f.ConnectedSince.UnixNano())
	}
	out, err := scanAll(a.t, scanPresence, q+" ORDER BY user_id", args...)
	if out == nil && err == nil {
		out = []users.Presence{}
	}
	return out, err
}

func (a presenceTx) Put(p users.Presence) (int64, error) {
	var id int64
	if err := a.t.get("UPDATE presence_sequence SET last_update_id = last_update_id + 1 WHERE id = 1 RETURNING last_update_id", nil, &id); err != nil {
		return 0, fmt.Errorf("next presence update id: %w", err)
	}
	_, err := a.t.exec("INSERT INTO presences ("+presenceColumns+") VALUES (?, ?, ?, ?) "+
		"ON CONFLICT (user_id) DO UPDATE SET last_active_time = excluded.last_active_time, "+
		"last_connected_time = excluded.last_connected_time, last_update_id = excluded.last_update_id",
		p.UserID, nanos(p.LastActiveTime), nanos(p.LastConnectedTime), id)
	if err != nil {
		return 0, err
	}
	return id, nil
}

func (r *readTx) AlertWords() storage.AlertWordReader { return alertWordTx{r.t} }
func (r *readTx) Presence() storage.PresenceReader    { return presenceTx{r.t} }
func (w *tx) AlertWords() storage.AlertWordWriter     { return alertWordTx{w.t} }
func (w *tx) Presence() storage.PresenceWriter        { return presenceTx{w.t} }

// onboardingTx is the onboarding-steps accessor: one row per step a user has read.
type onboardingTx struct{ t *txn }

func (o onboardingTx) Seen(id users.ID) ([]string, error) {
	out, err := scanAll(o.t, func(r *sql.Rows) (string, error) {
		var s string
		err := r.Scan(&s)
		return s, err
	}, "SELECT step FROM onboarding_steps WHERE user_id = ?", id)
	if out == nil && err == nil {
		out = []string{}
	}
	slices.Sort(out) // byte order, whatever the database's collation
	return out, err
}

func (o onboardingTx) MarkSeen(id users.ID, step string) error {
	_, err := o.t.exec("INSERT INTO onboarding_steps (user_id, step) VALUES (?, ?) ON CONFLICT (user_id, step) DO NOTHING", id, step)
	return err
}

func (r *readTx) OnboardingSteps() storage.OnboardingStepReader { return onboardingTx{r.t} }
func (w *tx) OnboardingSteps() storage.OnboardingStepWriter     { return onboardingTx{w.t} }
