package conversations

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/markdown"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// RenderMessage renders the content of a message by sender: the organization's linkifiers,
// user and group mentions and links to the channels sender may see. It returns the HTML and
// the mentions that notify (see mentionFlags). Users are read only for the mentions the
// content makes: one by id, all of them (once per world) for a mention by name.
func RenderMessage(w *world.World, content string, sender users.User) (string, markdown.Mentions) {
	var byName map[string]users.User
	mentioned := func(u users.User) markdown.MentionedUser {
		return markdown.MentionedUser{ID: int64(u.ID), FullName: u.FullName, Active: u.IsActive}
	}
	r := &markdown.Resolver{
		UserByID: func(id int64) (markdown.MentionedUser, bool) {
			u, ok := w.Lookup(users.ID(id))
			return mentioned(u), ok
		},
		UserByName: func(name string) (markdown.MentionedUser, bool) {
			if byName == nil {
				byName = map[string]users.User{}
				for _, u := range w.AllUsers() {
					if k := strings.ToLower(u.FullName); byName[k].ID == 0 {
						byName[k] = u // the lowest id of a shared name
					}
				}
			}
			u, ok := byName[strings.ToLower(name)]
			return mentioned(u), ok
		},
		Group: func(name string) (markdown.MentionedGroup, bool) {
			id := w.GroupID(name)
			if id == 0 {
				return markdown.MentionedGroup{}, false
			}
			i := slices.IndexFunc(w.AllGroups(), func(g users.Group) bool { return g.ID == id })
			if i < 0 || w.AllGroups()[i].IsSystemGroup {
				return markdown.MentionedGroup{}, false
			}
			g := w.AllGroups()[i]
			return markdown.MentionedGroup{ID: int64(g.ID), Name: g.Name, Deactivated: g.Deactivated}, true
		},
		Channel: func(name string) (int64, bool) {
			c, ok := w.ChannelByName(name)
			if !ok {
				return 0, false
			}
			if c.Name != name || c.IsArchived || sender.ID != NotificationBotID && !w.Metadata(c, sender) {
				return 0, false
			}
			return int64(c.ID), true
		},
	}
	return markdown.RenderWith(content, markdown.Options{Linkify: w.Linkifiers(), Resolver: r})
}

// mentionFlags are the mention flags a message's mentions give to user u: mentioned when
// named or in a mentioned group, and the channel-wide and topic-wide wildcard flags.
func mentionFlags(w *world.World, m markdown.Mentions, u users.ID) messages.Flags {
	return mentionFlagsOf(m, u, func(g users.GroupID, u users.ID) bool { return w.Membership().IsMember(g, u, false) })
}

// mentionFlagsOf is mentionFlags with isMember answering about the groups.
func mentionFlagsOf(m markdown.Mentions, u users.ID, isMember func(users.GroupID, users.ID) bool) messages.Flags {
	var f messages.Flags
	if m.StreamWildcard {
		f |= messages.FlagStreamWildcardMentioned
	}
	if m.TopicWildcard {
		f |= messages.FlagTopicWildcardMentioned
	}
	if slices.Contains(m.UserIDs, int64(u)) ||
		slices.ContainsFunc(m.GroupIDs, func(g int64) bool { return isMember(users.GroupID(g), u) }) {
		f |= messages.FlagMentioned
	}
	return f
}

// RenderMessageParams are the parameters of POST /messages/render.
type RenderMessageParams struct {
	Content string
}

// RenderMessageResult is the rendered HTML.
type RenderMessageResult struct {
	Rendered string `json:"rendered"`
}

// RenderMessage renders content as the actor's message would be rendered (the organization's
// linkifiers, mentions, channel links), storing nothing. Content longer than a message may be
// is refused.
func (s *Service) RenderMessage(ctx context.Context, actor engine.Actor, p RenderMessageParams) (RenderMessageResult, error) {
	if utf8.RuneCountInString(p.Content) > messages.MaxContentLength {
		return RenderMessageResult{}, engine.BadRequest("content is too long (limit: %d characters)", messages.MaxContentLength)
	}
	var res RenderMessageResult
	err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
		res.Rendered, _ = RenderMessage(o.World(), p.Content, o.Me)
		return nil
	})
	if err != nil {
		return RenderMessageResult{}, err
	}
	return res, nil
}
