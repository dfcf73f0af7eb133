package org

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/teamchat/chat/internal/engine"
)

// VideoCallResult is the answer of the video call endpoints: the URL of the new call.
type VideoCallResult struct {
	URL string `json:"url"`
}

// CreateZoomVideoCallParams are the parameters of POST /calls/zoom/create.
type CreateZoomVideoCallParams struct {
	// IsVideoCall (default true) is false for a voice call.
	IsVideoCall bool
}

// CreateZoomVideoCall creates a Zoom call for the actor. This server has no Zoom credentials,
// so it answers as a Zulip server without them does.
func (s *Service) CreateZoomVideoCall(ctx context.Context, actor engine.Actor, _ CreateZoomVideoCallParams) (VideoCallResult, error) {
	return VideoCallResult{}, s.unconfiguredCall(ctx, actor, "Zoom")
}

// CreateWebexVideoCall creates a Webex call for the actor (POST /calls/webex/create). This
// server has no Webex credentials, so it answers as a Zulip server without them does.
func (s *Service) CreateWebexVideoCall(ctx context.Context, actor engine.Actor) (VideoCallResult, error) {
	return VideoCallResult{}, s.unconfiguredCall(ctx, actor, "Webex")
}

// unconfiguredCall checks the actor and refuses a call with a provider that has no
// credentials.
func (s *Service) unconfiguredCall(ctx context.Context, actor engine.Actor, provider string) error {
	return s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		return engine.BadRequest("%s credentials have not been configured", provider)
	})
}

// MaxMeetingNameLength bounds meeting_name.
const MaxMeetingNameLength = 1000

// CreateBigBlueButtonVideoCallParams are the parameters of GET /calls/bigbluebutton/create.
type CreateBigBlueButtonVideoCallParams struct {
	MeetingName string
	VoiceOnly   bool
}

// CreateBigBlueButtonVideoCall returns the link of a new BigBlueButton meeting with the actor
// as its moderator, as Zulip does: a signed /calls/bigbluebutton/join link. (Following it is
// where a server without BigBlueButton fails.)
func (s *Service) CreateBigBlueButtonVideoCall(ctx context.Context, actor engine.Actor, p CreateBigBlueButtonVideoCallParams) (VideoCallResult, error) {
	if utf8.RuneCountInString(p.MeetingName) > MaxMeetingNameLength {
		return VideoCallResult{}, engine.BadRequest("meeting_name is too long (limit: %d characters)", MaxMeetingNameLength)
	}
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(*engine.ReadOp) error { return nil })
	if err != nil {
		return VideoCallResult{}, err
	}
	n, err := rand.Int(rand.Reader, big.NewInt(900000000000))
	if err != nil {
		return VideoCallResult{}, engine.InternalError(err)
	}
	payload, err := json.Marshal(map[string]any{
		"meeting_id": fmt.Sprintf("zulip-%d", 100000000000+n.Int64()), "name": p.MeetingName,
		"lock_settings_disable_cam": p.VoiceOnly, "moderator": actor.UserID,
	})
	if err != nil {
		return VideoCallResult{}, engine.InternalError(err)
	}
	signed := s.signCall(payload)
	return VideoCallResult{URL: "/calls/bigbluebutton/join?bigbluebutton=" + url.QueryEscape(signed)}, nil
}

// JoinBigBlueButtonVideoCallParams are the parameters of /calls/bigbluebutton/join.
type JoinBigBlueButtonVideoCallParams struct {
	// BigBlueButton is the signed meeting data of a link CreateBigBlueButtonVideoCall made.
	BigBlueButton string
}

// JoinBigBlueButtonVideoCallResult is JoinBigBlueButtonVideoCall's answer: nothing beyond success.
type JoinBigBlueButtonVideoCallResult struct{}

// JoinBigBlueButtonVideoCall opens the meeting of a link CreateBigBlueButtonVideoCall made.
// This server has no BigBlueButton server, so it answers as a Zulip server without one does:
// Zulip checks its configuration before it reads the link.
func (s *Service) JoinBigBlueButtonVideoCall(_ context.Context, _ JoinBigBlueButtonVideoCallParams) (JoinBigBlueButtonVideoCallResult, error) {
	return JoinBigBlueButtonVideoCallResult{}, engine.BadRequest("BigBlueButton is not configured.")
}

// signCall signs a call's data: its base64 form, a colon, and an HMAC of it.
func (s *Service) signCall(data []byte) string {
	enc := base64.RawURLEncoding.EncodeToString(data)
	mac := hmac.New(sha256.New, s.cfg.CallKey)
	mac.Write([]byte(enc))
	return enc + ":" + strings.TrimRight(base64.RawURLEncoding.EncodeToString(mac.Sum(nil)), "=")
}
