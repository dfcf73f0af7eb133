package slackimport

import (
	_ "embed"
	"strings"

	"github.com/teamchat/chat/emoji"
)

// slackEmoji lists the Slack emoji names (iamcal's emoji-datasource, which Slack's names come
// from) whose code Zulip's emoji table gives under another name; gen_slack_emoji.go writes it.
//
//go:embed slack_emoji.txt
var slackEmoji string

// emojiNames maps Slack emoji names to Zulip's: the code of Slack's name, then Zulip's
// canonical name for that code.
type emojiNames struct {
	ix    *emoji.Index
	slack map[string]string // Slack name -> code, where Zulip's table differs
}

func newEmojiNames() *emojiNames {
	m := map[string]string{}
	for _, line := range strings.Split(slackEmoji, "\n") {
		if name, code, ok := strings.Cut(line, " "); ok && !strings.HasPrefix(line, "#") {
			m[name] = code
		}
	}
	return &emojiNames{ix: emoji.NewIndex(), slack: m}
}

// lookup returns the Zulip name and code of the Slack emoji name.
func (e *emojiNames) lookup(slackName string) (name, code string, ok bool) {
	code, ok = e.slack[slackName]
	if !ok {
		code, ok = e.ix.Code(slackName)
	}
	if !ok {
		return "", "", false
	}
	name, ok = e.ix.Name(code)
	return name, code, ok
}
