package notify

import (
	"slices"

	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/topics"
	"github.com/teamchat/chat/users"
)

// The triggers of a notification (Zulip's NotificationTriggers), by precedence.
const (
	TriggerDirectMessage           = "direct_message"
	TriggerMentioned               = "mentioned"
	TriggerTopicWildcardMentioned  = "topic_wildcard_mentioned"
	TriggerStreamWildcardMentioned = "stream_wildcard_mentioned"
	TriggerFollowedTopic           = "followed_topic_email"
	TriggerStreamEmail             = "stream_email_notify"
)

// streamEmailSetting is the user's default for the email notifications of their channels; its
// default is false, so the users with it on are those who stored true (ListTrue).
const streamEmailSetting = "enable_stream_email_notifications"

// Queue writes, in the send's transaction, a pending notification for each recipient of m
// whose row (in rows) is unread and whose settings ask for an email for it (Zulip's
// get_user_group_mentions_data / NotificationTriggers): a direct message or a personal or
// group mention with enable_offline_email_notifications; a wildcard mention also with
// wildcard_mentions_notify, or in a followed topic with
// enable_followed_topic_wildcard_mentions_notify; any message of a followed topic with
// enable_followed_topic_email_notifications; any message of a channel whose email
// notifications are on for the user (channelEmailUsers). A notification is due at the end
// of its user's batching period (email_notifications_batching_period_seconds), or with the
// user's pending batch when there is one, as Zulip's ScheduledMessageNotificationEmail rows
// are. The Welcome Bot's messages notify nobody (Zulip sends them with
// disable_external_notifications). Every recipient has an unread row without flags but those
// of flagged; sortedHead says that recipients but the last ascend (a channel's subscribers,
// then the sender when not one of them), which the recipients are then searched by.
func Queue(w *world.World, tx storage.Tx, m messages.Message, recipients []users.ID, sortedHead bool, flagged []messages.UserMessage) error {
	if m.SenderID == world.WelcomeBotID {
		return nil
	}
	rs := newRecipientSet(recipients, sortedHead, flagged)
	var followers []users.ID
	var channelEmail map[users.ID]bool
	if !m.IsDirect() {
		var err error
		if followers, err = tx.UserTopics().FollowersOf(m.ChannelID, m.Topic); err != nil {
			return err
		}
		if channelEmail, err = channelEmailUsers(w, tx, m, rs); err != nil {
			return err
		}
	}
	candidates := candidatesOf(w, m, rs.rowsOf(m, followers, channelEmail), followers, channelEmail)
	if len(candidates) == 0 {
		return nil
	}
	ids := make([]users.ID, len(candidates))
	for i, r := range candidates {
		ids[i] = r.UserID
	}
	settings, err := tx.UserSettings().GetMany(ids)
	if err != nil {
		return err
	}
	var out []storage.PendingEmail
	for _, r := range candidates {
		trigger := triggerOf(m, r.Flags, slices.Contains(followers, r.UserID), settings[r.UserID])
		if trigger == "" && channelEmail[r.UserID] {
			trigger = TriggerStreamEmail
		}
		if trigger == "" {
			continue
		}
		due, err := dueAt(tx, r.UserID, m.Timestamp, settings[r.UserID])
		if err != nil {
			return err
		}
		out = append(out, storage.PendingEmail{UserID: r.UserID, MessageID: m.ID, Trigger: trigger, DueAt: due})
	}
	if len(out) == 0 {
		return nil
	}
	return tx.PendingEmails().Create(out)
}

// candidatesOf are the rows whose users might get an email for m: unread, not the sender's,
// of active humans, and for a channel message mentioned, following the topic or with the
// channel's email notifications on.
func candidatesOf(w *world.World, m messages.Message, rows []messages.UserMessage, followers []users.ID, channelEmail map[users.ID]bool) []messages.UserMessage {
	const mentions = messages.FlagMentioned | messages.FlagStreamWildcardMentioned | messages.FlagTopicWildcardMentioned
	var out []messages.UserMessage
	for _, r := range rows {
		if r.UserID == m.SenderID || r.Flags&messages.FlagRead != 0 {
			continue
		}
		if !m.IsDirect() && r.Flags&mentions == 0 && !slices.Contains(followers, r.UserID) && !channelEmail[r.UserID] {
			continue // nothing could trigger an email: no settings to read
		}
		if u, ok := w.Lookup(r.UserID); !ok || !u.IsActive || u.IsBot() {
			continue
		}
		out = append(out, r)
	}
	return out
}

// channelEmailUsers are the recipients of channel message m (unread, not the sender) whose
// email notifications for its channel are on (Zulip's stream_email_user_ids and
// user_allows_notifications_in_StreamTopic): the subscription's email_notifications, or when
// it is unset the user's enable_stream_email_notifications; never in a muted topic, nor in a
// muted channel unless the topic is unmuted. It reads the topic's visibility policies only
// when someone has them on.
func channelEmailUsers(w *world.World, tx storage.Tx, m messages.Message, rs recipientSet) (map[users.ID]bool, error) {
	prefs := w.SubscriberPrefsOf(m.ChannelID)
	global, err := tx.UserSettings().ListTrue(streamEmailSetting)
	if err != nil {
		return nil, err
	}
	if len(prefs) == 0 && len(global) == 0 {
		return nil, nil // the common case: nobody has them on
	}
	var on map[users.ID]bool // made at the first user
	consider := func(u users.ID) {
		f, ok := rs.flagsOf(u)
		if !ok || u == m.SenderID || f&messages.FlagRead != 0 {
			return
		}
		want := false
		if p := prefs[u].Email; p != nil {
			want = *p
		} else {
			_, want = slices.BinarySearch(global, u)
		}
		if want {
			if on == nil {
				on = map[users.ID]bool{}
			}
			on[u] = true
		}
	}
	for u := range prefs {
		consider(u)
	}
	for _, u := range global {
		consider(u)
	}
	if len(on) == 0 {
		return nil, nil
	}
	policies, err := tx.UserTopics().ListForTopic(m.ChannelID, m.Topic)
	if err != nil {
		return nil, err
	}
	policy := make(map[users.ID]topics.VisibilityPolicy, len(policies))
	for _, p := range policies {
		policy[p.UserID] = p.Policy
	}
	for u := range on {
		pol := policy[u]
		if pol == topics.PolicyMuted || prefs[u].Muted && pol != topics.PolicyUnmuted {
			delete(on, u)
		}
	}
	return on, nil
}

// triggerOf is why a recipient with flags f gets an email for m, or "" for none.
func triggerOf(m messages.Message, f messages.Flags, followed bool, s users.Settings) string {
	on := func(name string) bool { b, _ := s.Value(name).(bool); return b }
	offline := on("enable_offline_email_notifications")
	wildcard := f&(messages.FlagStreamWildcardMentioned|messages.FlagTopicWildcardMentioned) != 0
	wildcardTrigger := TriggerStreamWildcardMentioned
	if f&messages.FlagTopicWildcardMentioned != 0 {
		wildcardTrigger = TriggerTopicWildcardMentioned
	}
	switch {
	case m.IsDirect():
		if offline {
			return TriggerDirectMessage
		}
	case f&messages.FlagMentioned != 0 && offline:
		return TriggerMentioned
	case wildcard && offline && on("wildcard_mentions_notify"):
		return wildcardTrigger
	case wildcard && followed && on("enable_followed_topic_email_notifications") && on("enable_followed_topic_wildcard_mentions_notify"):
		return wildcardTrigger
	}
	if !m.IsDirect() && followed && on("enable_followed_topic_email_notifications") {
		return TriggerFollowedTopic
	}
	return ""
}

// dueAt is when a new notification of u is due: with u's pending batch, or at the end of u's
// batching period from the message's time (UNIX seconds); the answer is in UNIX milliseconds.
func dueAt(tx storage.Tx, u users.ID, sent int64, s users.Settings) (int64, error) {
	pending, err := tx.PendingEmails().ListForUser(u)
	if err != nil {
		return 0, err
	}
	if len(pending) > 0 {
		first := pending[0].DueAt
		for _, p := range pending[1:] {
			first = min(first, p.DueAt)
		}
		return first, nil
	}
	period, _ := s.Value("email_notifications_batching_period_seconds").(int64)
	return (sent + period) * 1000, nil
}
