package chat

import "time"

// Monitor receives figures of the Service's work as it happens, for monitoring (a Prometheus
// exporter, say). Its methods are called from the goroutines doing the work and must return
// quickly.
type Monitor interface {
	// EventPublished is called once per committed event handed to this process's event
	// queues: delivered is how many queues took it, elapsed how long handing it to them took.
	EventPublished(delivered int, elapsed time.Duration)
	// ScheduledMessagesDelivered is called after each pass of the scheduler that found due
	// messages: how many were sent and how many failed (could no longer be sent).
	ScheduledMessagesDelivered(sent, failed int)
	// FileUploaded is called once per stored upload, with its size in bytes.
	FileUploaded(bytes int64)
	// MessagesRetained is called after each message retention pass that archived or purged
	// messages: how many it archived and how many archived ones it purged.
	MessagesRetained(archived, purged int)
}

// QueueStats are the event queues of this process at one moment.
type QueueStats struct {
	// Queues is how many event queues are alive; LongPolls how many GET /events requests
	// are waiting on them.
	Queues, LongPolls int
}

// QueueStats reports the event queues alive in this process and the long-polls they hold.
func (s *Service) QueueStats() QueueStats {
	st := s.queues.Stats()
	return QueueStats{Queues: st.Queues, LongPolls: st.Waiting}
}

// observeFanout is the queue manager's Observe hook: Options.Monitor's EventPublished, or
// nil without a Monitor.
func observeFanout(m Monitor) func(int, time.Duration) {
	if m == nil {
		return nil
	}
	return m.EventPublished
}

// monitorUpload tells the Monitor, if any, of a stored upload.
func (s *Service) monitorUpload(bytes int64) {
	if s.opts.Monitor != nil {
		s.opts.Monitor.FileUploaded(bytes)
	}
}
