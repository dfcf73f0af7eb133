package slackimport

import (
	"encoding/json"
	"math"
	"strconv"
)

// The files of a Slack export, as much of them as the conversion reads.

type slackUser struct {
	ID                string       `json:"id"`
	TeamID            string       `json:"team_id"`
	Name              string       `json:"name"`
	Deleted           *bool        `json:"deleted"`
	RealName          string       `json:"real_name"`
	TZ                *string      `json:"tz"`
	Profile           slackProfile `json:"profile"`
	IsAdmin           bool         `json:"is_admin"`
	IsOwner           bool         `json:"is_owner"`
	IsPrimaryOwner    bool         `json:"is_primary_owner"`
	IsRestricted      bool         `json:"is_restricted"`
	IsUltraRestricted bool         `json:"is_ultra_restricted"`
	IsBot             bool         `json:"is_bot"`

	// Set by the conversion: a user the export mentions but does not describe, or the
	// placeholder of an integration bot.
	mirrorDummy    bool
	integrationBot bool
}

type slackProfile struct {
	Email              string                `json:"email"`
	RealName           *string               `json:"real_name"`
	RealNameNormalized *string               `json:"real_name_normalized"`
	FirstName          *string               `json:"first_name"`
	BotID              string                `json:"bot_id"`
	AvatarHash         string                `json:"avatar_hash"`
	Image72            string                `json:"image_72"`
	Phone              *string               `json:"phone"`
	Skype              *string               `json:"skype"`
	Fields             map[string]fieldValue `json:"fields"`
}

type fieldValue struct {
	Value string `json:"value"`
}

type slackChannel struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	Created    flexFloat `json:"created"`
	Members    []string  `json:"members"`
	IsArchived bool      `json:"is_archived"`
	Purpose    struct {
		Value string `json:"value"`
	} `json:"purpose"`
}

type slackDM struct {
	ID      string   `json:"id"`
	Members []string `json:"members"`
}

type slackFile struct {
	ID         string    `json:"id"`
	Created    flexFloat `json:"created"`
	Timestamp  flexFloat `json:"timestamp"`
	Name       string    `json:"name"`
	Title      string    `json:"title"`
	Mimetype   string    `json:"mimetype"`
	User       string    `json:"user"`
	Size       int64     `json:"size"`
	Mode       string    `json:"mode"`
	FileAccess string    `json:"file_access"`
	URLPrivate string    `json:"url_private"`
	Permalink  string    `json:"permalink"`
}

type slackReaction struct {
	Name  string   `json:"name"`
	Users []string `json:"users"`
}

type slackMessage struct {
	Type         string            `json:"type"`
	Subtype      string            `json:"subtype"`
	User         string            `json:"user"`
	BotID        string            `json:"bot_id"`
	Username     string            `json:"username"`
	Text         string            `json:"text"`
	TS           string            `json:"ts"`
	ThreadTS     string            `json:"thread_ts"`
	ParentUserID string            `json:"parent_user_id"`
	Mimetype     string            `json:"mimetype"`
	File         *slackFile        `json:"file"`
	Files        []slackFile       `json:"files"`
	Reactions    []slackReaction   `json:"reactions"`
	Blocks       []json.RawMessage `json:"blocks"`
	Attachments  []json.RawMessage `json:"attachments"`
	Comment      *struct {
		User string `json:"user"`
	} `json:"comment"`
	Root *struct {
		User  string `json:"user"`
		BotID string `json:"bot_id"`
	} `json:"root"`

	// Set while reading: the conversation the message belongs to and its kind.
	conv string
	kind convKind
	ts   float64
}

type convKind int

const (
	kindChannel convKind = iota
	kindMPIM
	kindDM
)

// sender is the Slack id of the message's author: the user, the uploader of its file, or
// its bot.
func (m *slackMessage) sender() string {
	switch {
	case m.User != "":
		return m.User
	case m.File != nil && m.File.User != "":
		return m.File.User
	default:
		return m.BotID
	}
}

// isIntegrationBot reports a message of an integration bot, which has no user of its own.
func (m *slackMessage) isIntegrationBot() bool {
	return m.Subtype == "bot_message" && m.User == "" && m.BotID != ""
}

// flexFloat is a number Slack writes either as a JSON number or as a string.
type flexFloat float64

func (f *flexFloat) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		return nil
	}
	if unq, err := strconv.Unquote(s); err == nil {
		s = unq
	}
	if v, ok := parseTime(s); ok {
		*f = flexFloat(v)
	}
	return nil // a malformed time is no reason to reject the export
}

// parseTime reads a Unix time in seconds: a finite number from 0 to year 5000.
func parseTime(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || v < 0 || v > 95617584000 {
		return 0, false
	}
	return v, true
}
