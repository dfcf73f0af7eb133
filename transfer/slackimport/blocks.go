package slackimport

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Block Kit blocks and legacy attachments, rendered as Zulip Markdown the way
// slack_message_conversion.py renders them. A block of an unknown or malformed shape renders
// as nothing: the message keeps the rest.

type textObject struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type blockElement struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL string `json:"image_url"`
	AltText  string `json:"alt_text"`
}

type block struct {
	Type      string         `json:"type"`
	Text      *textObject    `json:"text"`
	Title     *textObject    `json:"title"`
	ImageURL  string         `json:"image_url"`
	AltText   string         `json:"alt_text"`
	Elements  []blockElement `json:"elements"`
	Fields    []textObject   `json:"fields"`
	Accessory *blockElement  `json:"accessory"`
}

type attachmentField struct {
	Title string `json:"title"`
	Value string `json:"value"`
}

type attachment struct {
	Title     string            `json:"title"`
	TitleLink string            `json:"title_link"`
	Pretext   string            `json:"pretext"`
	Text      string            `json:"text"`
	Fields    []attachmentField `json:"fields"`
	Blocks    []json.RawMessage `json:"blocks"`
	ImageURL  string            `json:"image_url"`
	Footer    string            `json:"footer"`
	TS        json.RawMessage   `json:"ts"`
}

// renderBlock renders one block; unknown types, and the types Zulip leaves out (rich_text,
// whose text is the message's text, actions, file, call, table, input), render as "".
func renderBlock(raw json.RawMessage) string {
	var b block
	if json.Unmarshal(raw, &b) != nil {
		return ""
	}
	switch b.Type {
	case "context":
		var pieces []string
		for _, e := range b.Elements {
			if e.Type == "image" {
				pieces = append(pieces, renderElement(e))
			} else if e.Type == "plain_text" || e.Type == "mrkdwn" {
				pieces = append(pieces, e.Text)
			}
		}
		return joinPieces(pieces, "\n\n")
	case "divider":
		return "----"
	case "header":
		if b.Text == nil {
			return ""
		}
		return "## " + b.Text.Text
	case "image":
		alt := b.AltText
		if b.Title != nil {
			alt = b.Title.Text
		}
		return fmt.Sprintf("[%s](%s)", alt, b.ImageURL)
	case "section":
		return renderSection(b)
	}
	return ""
}

func renderSection(b block) string {
	var pieces []string
	if b.Text != nil {
		pieces = append(pieces, b.Text.Text)
	}
	if b.Accessory != nil {
		pieces = append(pieces, renderElement(*b.Accessory))
	}
	switch len(b.Fields) {
	case 0:
	case 1:
		pieces = append(pieces, b.Fields[0].Text)
	default:
		// Two columns as a table with an empty header; a table cell can hold neither a
		// newline nor a pipe.
		var t strings.Builder
		t.WriteString("| | |\n|-|-|\n")
		for i := 0; i < len(b.Fields); i += 2 {
			left := cell(b.Fields[i].Text)
			right := ""
			if i+1 < len(b.Fields) {
				right = cell(b.Fields[i+1].Text)
			}
			fmt.Fprintf(&t, "| %s | %s |\n", left, right)
		}
		pieces = append(pieces, t.String())
	}
	return joinPieces(pieces, "\n\n")
}

func cell(s string) string { return strings.NewReplacer("\n", " ", "|", " ").Replace(s) }

// renderElement renders an image element; Zulip has no interactive elements.
func renderElement(e blockElement) string {
	if e.Type != "image" {
		return ""
	}
	return fmt.Sprintf("[%s](%s)", e.AltText, e.ImageURL)
}

// renderAttachment renders a legacy attachment: title, pretext, text, fields, blocks, image,
// footer and time.
func renderAttachment(raw json.RawMessage) string {
	var a attachment
	if json.Unmarshal(raw, &a) != nil {
		return ""
	}
	var pieces []string
	if a.Title != "" {
		if a.TitleLink != "" {
			pieces = append(pieces, fmt.Sprintf("## [%s](%s)", a.Title, a.TitleLink))
		} else {
			pieces = append(pieces, "## "+a.Title)
		}
	}
	pieces = append(pieces, a.Pretext, a.Text)
	if a.Fields != nil {
		var fields []string
		for _, f := range a.Fields {
			switch {
			case f.Title != "" && f.Value != "":
				fields = append(fields, fmt.Sprintf("*%s*: %s", f.Title, f.Value))
			case f.Title != "":
				fields = append(fields, fmt.Sprintf("*%s*", f.Title))
			case f.Value != "":
				fields = append(fields, f.Value)
			}
		}
		pieces = append(pieces, strings.Join(fields, "\n"))
	}
	for _, b := range a.Blocks {
		pieces = append(pieces, renderBlock(b))
	}
	if a.ImageURL != "" {
		pieces = append(pieces, fmt.Sprintf("[](%s)", a.ImageURL))
	}
	pieces = append(pieces, a.Footer)
	if ts, ok := attachmentTime(a.TS); ok {
		pieces = append(pieces, "<time:"+ts.UTC().Format("2006-01-02T15:04:05-07:00")+">")
	}
	return joinPieces(pieces, "\n\n")
}

// attachmentTime reads an attachment's ts, an integer or (seen in the wild) a string holding
// a number.
func attachmentTime(raw json.RawMessage) (time.Time, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return time.Time{}, false
	}
	s := string(raw)
	if unq, err := strconv.Unquote(s); err == nil {
		s = unq
	}
	f, ok := parseTime(s)
	if !ok || f == 0 {
		return time.Time{}, false
	}
	return time.Unix(int64(f), 0), true
}

// joinPieces joins the trimmed non-empty pieces.
func joinPieces(pieces []string, sep string) string {
	var keep []string
	for _, p := range pieces {
		if p = strings.TrimSpace(p); p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}

// messageMarkup is the Slack markup of a message: its text, or when it has none, its blocks;
// then its attachments.
func messageMarkup(text string, blocks, attachments []json.RawMessage) string {
	var pieces []string
	if strings.TrimSpace(text) != "" {
		pieces = append(pieces, text)
	} else {
		for _, b := range blocks {
			pieces = append(pieces, renderBlock(b))
		}
	}
	for _, a := range attachments {
		pieces = append(pieces, renderAttachment(a))
	}
	return joinPieces(pieces, "\n")
}
