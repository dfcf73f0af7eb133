package chat

import (
	"slices"
	"sync"
)

// Queues registered with all_public_streams receive the message events of every public
// channel, not only of the channels their user is subscribed to (bots that watch the
// organization). Such an event goes to a sentinel recipient; when it is published (in this
// process, or by the bus in every process) the sentinel becomes the local owners of such
// queues, less the message's own recipients, who got the ordinary event.

// publicWatchersSentinel is the recipient of a publicChannelMessage event.
const publicWatchersSentinel int64 = -1

// publicChannelMessage is the message event of a public channel for the all_public_streams
// queues of users who did not receive it (except, sorted).
type publicChannelMessage struct {
	event  MessageEvent
	except []int64
}

// publicWatchers records the owners that registered an all_public_streams queue in this
// process (an owner whose queues have all expired stays: the filter finds no such queue).
type publicWatchers struct {
	mu     sync.Mutex
	owners map[int64]bool
}

// add records an owner of an all_public_streams queue.
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
func (s *Service) recipientsOf(p pending) []int64 {
	if pc, ok := p.payload.(publicChannelMessage); ok {
		return s.watchers.without(pc.except)
	}
	return p.recipients
}

// forClient gives the message event to all_public_streams queues only.
func (p publicChannelMessage) forClient(o queueOptions) (any, bool) {
	if !o.allPublicStreams {
		return nil, false
	}
	return p.event.forClient(o)
}
