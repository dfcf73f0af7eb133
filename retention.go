package chat

import (
	"context"

	"github.com/teamchat/chat/files"
	"github.com/teamchat/chat/retention"
)

// Types of the message retention area (package retention).
type (
	ArchiveMessagesParams = retention.ArchiveMessagesParams
	ArchiveMessagesResult = retention.ArchiveMessagesResult
	RestoreArchiveParams  = retention.RestoreArchiveParams
	RestoreArchiveResult  = retention.RestoreArchiveResult
)

// DefaultRetentionGracePeriod is how long archived messages stay restorable when
// Options.RetentionGracePeriod is zero (Zulip's ARCHIVED_DATA_VACUUMING_DELAY_DAYS, 30 days).
const DefaultRetentionGracePeriod = retention.DefaultGracePeriod

// RetentionMonitor is an optional capability of Options.Monitor (as EmailMonitor is): told
// after each message retention pass that archived or purged messages how many it archived and
// how many archived ones it purged.
type RetentionMonitor interface {
	MessagesRetained(archived, purged int)
}

// retentionConfig is the retention area's configuration from the Service's Options.
func retentionConfig(opts Options, f *files.Service) retention.Config {
	cfg := retention.Config{
		Store: opts.Store, Now: opts.Now, Log: opts.Logger, Files: f,
		BatchSize: opts.RetentionBatchSize, GracePeriod: opts.RetentionGracePeriod, Interval: opts.RetentionInterval,
	}
	if m, ok := opts.Monitor.(RetentionMonitor); ok {
		cfg.Archived = func(n int) { m.MessagesRetained(n, 0) }
		cfg.Purged = func(n int) { m.MessagesRetained(0, n) }
	}
	return cfg
}

// ArchiveMessages runs a message retention pass now: the messages past their channel's
// message_retention_days (the organization's for channels that inherit it and for direct
// messages) are removed into archives, without events, and archives older than
// Options.RetentionGracePeriod are purged. StartScheduler runs it every
// Options.RetentionInterval.
func (s *Service) ArchiveMessages(ctx context.Context, p ArchiveMessagesParams) (ArchiveMessagesResult, error) {
	return s.retention.ArchiveMessages(ctx, p)
}

// RestoreArchive brings back the messages of one archive of a retention pass.
func (s *Service) RestoreArchive(ctx context.Context, p RestoreArchiveParams) (RestoreArchiveResult, error) {
	return s.retention.RestoreArchive(ctx, p)
}
