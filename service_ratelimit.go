package chat

import (
	"strconv"
	"time"

	"github.com/teamchat/chat/people"
	"github.com/teamchat/chat/ratelimit"
)

// Default API rate limits, Zulip's api_by_user and api_by_ip rules.
var (
	DefaultAPIRateLimit          = ratelimit.Rule{Window: 60 * time.Second, Max: 200}
	DefaultAnonymousAPIRateLimit = ratelimit.Rule{Window: 60 * time.Second, Max: 100}
)

// RateLimitStatus is what the X-RateLimit-* headers of a response report. Limit zero means the
// request was not rate limited (limits disabled).
type RateLimitStatus struct {
	Limit     int
	Remaining int
	Reset     time.Time
}

// CountAPIRequest counts one API request against the actor's budget (per user), or for the
// anonymous actor against the client address's budget. Over the limit it returns
// RATE_LIMIT_HIT (HTTP 429, retry-after) and the request must not be served.
func (s *Service) CountAPIRequest(actor Actor, clientAddress string) (RateLimitStatus, error) {
	var d ratelimit.Decision
	if actor.Anonymous() {
		d = s.apiByAddr.Allow(clientAddress)
	} else {
		d = s.apiByUser.Allow(strconv.FormatInt(int64(actor.UserID), 10))
	}
	st := RateLimitStatus{Limit: d.Limit, Remaining: d.Remaining, Reset: d.Reset}
	return st, people.RateLimited(d)
}
