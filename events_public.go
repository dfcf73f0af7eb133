package chat

import (
	"slices"
	"sync"

	"github.com/teamchat/chat/conversations"
	"github.com/teamchat/chat/internal/engine"
)

// Queues registered with all_public_streams receive the message events of every public
// channel, not only of the channels their user is subscribed to (bots that watch the
// organization); so do queues registered with a narrow, for the messages their narrow keeps
// (Zulip's realm_clients_all_streams holds both kinds, and its get_client_info_for_message_event
// adds them to every message of a channel that is not invite-only, with no flags). Such an
// event goes to a sentinel recipient; when it is published (in this process, or by the bus in
// every process) the sentinel becomes the local owners of such queues, less the message's own
// recipients, who got the ordinary event, and less the guests, who may not read channels they
// are not subscribed to (Zulip refuses all_public_streams to guests; its narrowed queues do
// not check, which would hand a guest's narrow any public channel's messages).
//
// Only message events: Zulip's other events about a public channel's messages
// (update_message, delete_message, reaction) go to the users with a row for the message and
// the channel's subscribers (zerver/lib/message.py, event_recipient_ids_for_action_on_messages:
// "we do not send live-update events to everyone who could potentially have a cached copy of
// a message because they fetched messages in a public channel to which they are not
// subscribed"), whatever their queues; and its stream and subscription peer events go to
// every user who may see the channel, which an all_public_streams queue's owner (never a
// guest) already is.

// publicWatchers records the owners that registered an all_public_streams or narrowed queue in
// this process (an owner whose queues have all expired stays: the filter finds no such queue).
type publicWatchers struct {
	mu     sync.Mutex
	owners map[int64]bool
}

// add records an owner of an all_public_streams or narrowed queue.
func (p *publicWatchers) add(owner int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.owners == nil {
		p.owners = map[int64]bool{}
	}
	p.owners[owner] = true
}

// without returns the recorded owners not in except (sorted), ascending.
func (p *publicWatchers) without(except []int64) []int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]int64, 0, len(p.owners))
	for o := range p.owners {
		if _, found := slices.BinarySearch(except, o); !found {
			out = append(out, o)
		}
	}
	slices.Sort(out)
	return out
}

// recipientsOf expands the sentinel recipient of a public channel's message event.
func (s *Service) recipientsOf(p engine.Pending) []int64 {
	if pc, ok := p.Payload.(conversations.PublicChannelMessage); ok {
		return s.watchers.without(pc.Except)
	}
	return p.Recipients
}

// watchesPublicChannels says whether a queue gets the messages of public channels its user
// is not subscribed to.
func (o queueOptions) watchesPublicChannels() bool {
	return o.allPublicStreams || len(o.narrow) > 0
}

// publicForQueue gives a public channel's message event to all_public_streams queues and,
// when their narrow keeps it, narrowed queues.
func publicForQueue(p conversations.PublicChannelMessage, o queueOptions) (any, bool) {
	if !o.watchesPublicChannels() {
		return nil, false
	}
	return p.Event.ForClient(o.Options)
}
