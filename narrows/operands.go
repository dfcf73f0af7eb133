package narrows

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/internal/world"
	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/users"
)

// operandText is the operand as Zulip prints it in an error.
func operandText(v any) string {
	switch x := v.(type) {
	case float64:
		if x == float64(int64(x)) {
			return strconv.FormatInt(int64(x), 10)
		}
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = operandText(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// checkOperand applies Zulip's operand types: ids or names for the operators that take one
// user, channel or message, a list (or a string) for dm, a non-blank string for search and a
// string for everything else. A wrong type is BAD_REQUEST, as in Zulip.
func checkOperand(n Term) error {
	switch n.Operator {
	case "channel", "stream", "id", "sender", "group-pm-with", "group_pm_with", "dm-including", "with":
		switch n.Operand.(type) {
		case string, float64, int, int64:
			return nil
		}
		return engine.BadRequest("operand is not a string or integer")
	case "dm", "pm-with", "pm_with":
		switch x := n.Operand.(type) {
		case string, float64, int, int64:
			return nil
		case []any:
			for _, e := range x {
				switch e.(type) {
				case string, float64, int, int64:
				default:
					return engine.BadRequest("operand is not a string or an integer list")
				}
			}
			return nil
		}
		return engine.BadRequest("operand is not a string or an integer list")
	case "search":
		s, ok := n.Operand.(string)
		if !ok {
			return engine.BadRequest("operand is not a string")
		}
		if !messages.ValidSearchText(s) {
			return engine.BadRequest("operand cannot be blank.")
		}
		return nil
	}
	if _, ok := n.Operand.(string); !ok {
		return engine.BadRequest("operand is not a string")
	}
	return nil
}

func intOperand(v any) (int64, bool) {
	switch x := v.(type) {
	case float64:
		return int64(x), x == float64(int64(x))
	case int64:
		return x, true
	case int:
		return int64(x), true
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		return n, err == nil
	}
	return 0, false
}

// channelOperand resolves a channel by id or name among the channels me may see.
func channelOperand(w *world.World, me users.User, v any) (channels.ID, bool) {
	var c channels.Channel
	var ok bool
	if id, isInt := intOperand(v); isInt {
		c, ok = w.Channel(channels.ID(id))
	} else if name, isStr := v.(string); isStr {
		c, ok = w.ChannelByName(name)
	}
	if !ok || !w.Metadata(c, me) {
		return 0, false
	}
	return c.ID, true
}

// userOperand resolves a user by id or email.
func userOperand(w *world.World, v any) (users.ID, bool) {
	if id, ok := intOperand(v); ok {
		_, known := w.Lookup(users.ID(id))
		return users.ID(id), known
	}
	if email, ok := v.(string); ok {
		u, found := w.UserByEmail(strings.TrimSpace(email))
		return u.ID, found
	}
	return 0, false
}

// usersOperand resolves a dm operand: a list of ids or emails, one id, or comma-separated
// emails.
func usersOperand(w *world.World, v any) ([]users.ID, bool) {
	var items []any
	switch x := v.(type) {
	case []any:
		items = x
	case string:
		for _, e := range strings.Split(x, ",") {
			items = append(items, e)
		}
	default:
		items = []any{v}
	}
	if len(items) > MaxDirectRecipients {
		return nil, false
	}
	out := make([]users.ID, 0, len(items))
	for _, it := range items {
		id, ok := userOperand(w, it)
		if !ok {
			return nil, false
		}
		out = append(out, id)
	}
	return out, true
}
