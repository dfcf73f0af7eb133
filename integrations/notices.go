package integrations

import (
	"fmt"
	"sync"
	"time"
)

// The direct messages Zulip sends a bot's owner when the bot's integration URL is
// misconfigured (zerver/lib/webhooks/common.py).

// MissingHeaderNotice is the message for a request without the integration's event header.
func MissingHeaderNotice(botName, requestPath, header, integration, supportEmail string) string {
	return fmt.Sprintf("Hi there!  Your bot %s just sent an HTTP request to %s that\n"+
		"is missing the HTTP %s header.  Because this header is how\n"+
		"%s indicates the event type, this usually indicates a configuration\n"+
		"issue, where you either entered the URL for a different integration, or are running\n"+
		"an older version of the third-party service that doesn't provide that header.\n"+
		"Contact %s if you need help debugging!", botName, requestPath, header, integration, supportEmail)
}

// InvalidJSONNotice is the message for a body that is not the JSON the integration expects.
func InvalidJSONNotice(webhook string) string {
	return fmt.Sprintf("Hi there! It looks like you tried to set up the Zulip %s integration,\n"+
		"but didn't correctly configure the webhook to send data in the JSON format\n"+
		"that this integration expects!", webhook)
}

// NoticeWait is how long a bot's owner hears nothing more after a notice (Zulip's
// BOT_OWNER_STREAM_ALERT_WAITPERIOD).
const NoticeWait = time.Minute

// maxNoticeBots bounds the bots a NoticeLimiter remembers; past it, it starts over.
const maxNoticeBots = 1 << 16

// NoticeLimiter lets through one notice per bot per NoticeWait (Zulip keeps the time in
// the bot's last_reminder; this keeps it in memory, per process). Safe for concurrent use.
type NoticeLimiter struct {
	mu   sync.Mutex
	last map[int64]time.Time
}

// Allow reports whether the bot's owner may be told now, and if so records it.
func (l *NoticeLimiter) Allow(bot int64, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if t, ok := l.last[bot]; ok && now.Sub(t) <= NoticeWait {
		return false
	}
	if l.last == nil || len(l.last) >= maxNoticeBots {
		l.last = map[int64]time.Time{}
	}
	l.last[bot] = now
	return true
}
