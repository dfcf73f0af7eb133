package mattermostimport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// ErrInvalidExport is returned (wrapped) for a file that is not a Mattermost bulk export or
// breaks a limit.
var ErrInvalidExport = errors.New("mattermostimport: not a valid Mattermost bulk export")

// The lines of a Mattermost bulk export (https://docs.mattermost.com/manage/bulk-export-tool.html),
// as much of them as the conversion reads.

type mmTeam struct {
	Name        string `json:"name"`
	DisplayName string `json:"display_name"`
}

type mmChannel struct {
	Team        string `json:"team"`
	Name        string `json:"name"`
	DisplayName string `json:"display_name"`
	Type        string `json:"type"`
	Header      string `json:"header"`
	Purpose     string `json:"purpose"`
}

type mmUser struct {
	Username  string       `json:"username"`
	Email     string       `json:"email"`
	FirstName string       `json:"first_name"`
	LastName  string       `json:"last_name"`
	Teams     []mmUserTeam `json:"teams"`
}

type mmUserTeam struct {
	Name     string          `json:"name"`
	Roles    string          `json:"roles"`
	Channels []mmUserChannel `json:"channels"`
}

type mmUserChannel struct {
	Name  string `json:"name"`
	Roles string `json:"roles"`
}

type mmReaction struct {
	User      string `json:"user"`
	EmojiName string `json:"emoji_name"`
}

type mmAttachment struct {
	Path string `json:"path"`
}

type mmPost struct {
	Team           string         `json:"team"`
	Channel        string         `json:"channel"`
	ChannelMembers []string       `json:"channel_members"`
	User           string         `json:"user"`
	Message        string         `json:"message"`
	CreateAt       int64          `json:"create_at"`
	Reactions      []mmReaction   `json:"reactions"`
	Replies        []mmPost       `json:"replies"`
	Attachments    []mmAttachment `json:"attachments"`
}

type mmDirectChannel struct {
	Members []string `json:"members"`
}

type mmEmoji struct {
	Name  string `json:"name"`
	Image string `json:"image"`
}

// line is one line of the export: its type and the object of that type.
type line struct {
	Type          string           `json:"type"`
	Version       *int             `json:"version"`
	Team          *mmTeam          `json:"team"`
	Channel       *mmChannel       `json:"channel"`
	User          *mmUser          `json:"user"`
	Post          *mmPost          `json:"post"`
	DirectChannel *mmDirectChannel `json:"direct_channel"`
	DirectPost    *mmPost          `json:"direct_post"`
	Emoji         *mmEmoji         `json:"emoji"`
}

// decodeLine decodes one line. A line of a known type must carry its object; lines of other
// types (schemes, roles...) decode with their type only and are ignored by the conversion.
func decodeLine(b []byte) (line, error) {
	var l line
	if err := json.Unmarshal(b, &l); err != nil {
		return line{}, fmt.Errorf("%w: %w", ErrInvalidExport, err)
	}
	missing := false
	switch l.Type {
	case "version":
		missing = l.Version == nil
	case "team":
		missing = l.Team == nil || l.Team.Name == ""
	case "channel":
		missing = l.Channel == nil || l.Channel.Name == ""
	case "user":
		missing = l.User == nil || l.User.Username == ""
	case "post":
		missing = l.Post == nil
	case "direct_channel":
		missing = l.DirectChannel == nil
	case "direct_post":
		missing = l.DirectPost == nil
	case "emoji":
		missing = l.Emoji == nil || l.Emoji.Name == ""
	case "":
		return line{}, fmt.Errorf("%w: a line without type", ErrInvalidExport)
	}
	if missing {
		return line{}, fmt.Errorf("%w: a %s line without its %s", ErrInvalidExport, l.Type, l.Type)
	}
	return l, nil
}

// exportData is the whole export, by type, in file order.
type exportData struct {
	teams          []mmTeam
	channels       []mmChannel
	users          []mmUser
	posts          []mmPost
	directChannels []mmDirectChannel
	directPosts    []mmPost
	emoji          []mmEmoji
}

// readExport reads the export's lines, each at most maxLine bytes and maxTotal in all.
func readExport(r io.Reader, maxLine int, maxTotal int64) (*exportData, error) {
	lr := &io.LimitedReader{R: r, N: maxTotal + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, min(64<<10, maxLine)), maxLine)
	tooLarge := fmt.Errorf("%w: larger than %d bytes", ErrInvalidExport, maxTotal)
	d := &exportData{}
	n := 0
	for sc.Scan() {
		n++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		l, err := decodeLine(b)
		if err != nil {
			if lr.N <= 0 {
				return nil, tooLarge // the line was cut at the limit
			}
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		d.add(l)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%w: line %d is longer than %d bytes", ErrInvalidExport, n+1, maxLine)
		}
		return nil, fmt.Errorf("mattermostimport: read: %w", err)
	}
	if lr.N <= 0 {
		return nil, tooLarge
	}
	return d, nil
}

func (d *exportData) add(l line) {
	switch l.Type {
	case "team":
		d.teams = append(d.teams, *l.Team)
	case "channel":
		d.channels = append(d.channels, *l.Channel)
	case "user":
		d.users = append(d.users, *l.User)
	case "post":
		d.posts = append(d.posts, *l.Post)
	case "direct_channel":
		d.directChannels = append(d.directChannels, *l.DirectChannel)
	case "direct_post":
		d.directPosts = append(d.directPosts, *l.DirectPost)
	case "emoji":
		d.emoji = append(d.emoji, *l.Emoji)
	}
}
