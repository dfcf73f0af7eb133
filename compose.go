package chat

import (
	"context"

	"github.com/teamchat/chat/compose"
)

// Drafts, saved snippets, navigation views, scheduled messages and reminders are the compose
// area's operations (package compose); the Service delegates to it.

// The types of the compose area, defined in package compose: these aliases keep embedders' code
// compiling.
type (
	DeliverScheduledMessagesParams = compose.DeliverScheduledMessagesParams
	DeliverScheduledMessagesResult = compose.DeliverScheduledMessagesResult
	ScheduledState                 = compose.ScheduledState
	ScheduledTo                    = compose.ScheduledTo
	ScheduledMessageRecord         = compose.ScheduledMessageRecord
	ScheduledMessagesEvent         = compose.ScheduledMessagesEvent
	GetScheduledMessagesParams     = compose.GetScheduledMessagesParams
	GetScheduledMessagesResult     = compose.GetScheduledMessagesResult
	CreateScheduledMessageParams   = compose.CreateScheduledMessageParams
	CreateScheduledMessageResult   = compose.CreateScheduledMessageResult
	UpdateScheduledMessageParams   = compose.UpdateScheduledMessageParams
	UpdateScheduledMessageResult   = compose.UpdateScheduledMessageResult
	DeleteScheduledMessageParams   = compose.DeleteScheduledMessageParams
	DeleteScheduledMessageResult   = compose.DeleteScheduledMessageResult
	ReminderRecord                 = compose.ReminderRecord
	RemindersEvent                 = compose.RemindersEvent
	GetRemindersParams             = compose.GetRemindersParams
	GetRemindersResult             = compose.GetRemindersResult
	CreateMessageReminderParams    = compose.CreateMessageReminderParams
	CreateMessageReminderResult    = compose.CreateMessageReminderResult
	DeleteReminderParams           = compose.DeleteReminderParams
	DeleteReminderResult           = compose.DeleteReminderResult
	DraftParams                    = compose.DraftParams
	DraftRecord                    = compose.DraftRecord
	DraftsState                    = compose.DraftsState
	DraftsEvent                    = compose.DraftsEvent
	GetDraftsParams                = compose.GetDraftsParams
	GetDraftsResult                = compose.GetDraftsResult
	CreateDraftsParams             = compose.CreateDraftsParams
	CreateDraftsResult             = compose.CreateDraftsResult
	EditDraftParams                = compose.EditDraftParams
	EditDraftResult                = compose.EditDraftResult
	DeleteDraftParams              = compose.DeleteDraftParams
	DeleteDraftResult              = compose.DeleteDraftResult
	NavigationViewRecord           = compose.NavigationViewRecord
	NavigationViewUpdate           = compose.NavigationViewUpdate
	NavigationViewEvent            = compose.NavigationViewEvent
	GetNavigationViewsParams       = compose.GetNavigationViewsParams
	GetNavigationViewsResult       = compose.GetNavigationViewsResult
	AddNavigationViewParams        = compose.AddNavigationViewParams
	AddNavigationViewResult        = compose.AddNavigationViewResult
	EditNavigationViewParams       = compose.EditNavigationViewParams
	EditNavigationViewResult       = compose.EditNavigationViewResult
	RemoveNavigationViewParams     = compose.RemoveNavigationViewParams
	RemoveNavigationViewResult     = compose.RemoveNavigationViewResult
	SavedSnippetRecord             = compose.SavedSnippetRecord
	SavedSnippetsEvent             = compose.SavedSnippetsEvent
	GetSavedSnippetsParams         = compose.GetSavedSnippetsParams
	GetSavedSnippetsResult         = compose.GetSavedSnippetsResult
	CreateSavedSnippetParams       = compose.CreateSavedSnippetParams
	CreateSavedSnippetResult       = compose.CreateSavedSnippetResult
	EditSavedSnippetParams         = compose.EditSavedSnippetParams
	EditSavedSnippetResult         = compose.EditSavedSnippetResult
	DeleteSavedSnippetParams       = compose.DeleteSavedSnippetParams
	DeleteSavedSnippetResult       = compose.DeleteSavedSnippetResult
)

// GetDrafts returns the actor's drafts.
func (s *Service) GetDrafts(ctx context.Context, actor Actor, p GetDraftsParams) (GetDraftsResult, error) {
	return s.compose.GetDrafts(ctx, actor, p)
}

// CreateDrafts stores new drafts of the actor and sends one drafts add event to the actor.
// Either every draft is valid and stored, or none is.
func (s *Service) CreateDrafts(ctx context.Context, actor Actor, p CreateDraftsParams) (CreateDraftsResult, error) {
	return s.compose.CreateDrafts(ctx, actor, p)
}

// EditDraft replaces one of the actor's drafts and sends a drafts update event to the actor.
// An unknown id, or another user's draft, is "Draft does not exist" (404, BAD_REQUEST).
func (s *Service) EditDraft(ctx context.Context, actor Actor, p EditDraftParams) (EditDraftResult, error) {
	return s.compose.EditDraft(ctx, actor, p)
}

// DeleteDraft removes one of the actor's drafts and sends a drafts remove event to the actor.
func (s *Service) DeleteDraft(ctx context.Context, actor Actor, p DeleteDraftParams) (DeleteDraftResult, error) {
	return s.compose.DeleteDraft(ctx, actor, p)
}

// GetNavigationViews returns the actor's navigation views.
func (s *Service) GetNavigationViews(ctx context.Context, actor Actor, p GetNavigationViewsParams) (GetNavigationViewsResult, error) {
	return s.compose.GetNavigationViews(ctx, actor, p)
}

// AddNavigationView configures a built-in view or adds a custom one for the actor, and sends
// a navigation_view add event to the actor. Fragments and names are unique per user.
func (s *Service) AddNavigationView(ctx context.Context, actor Actor, p AddNavigationViewParams) (AddNavigationViewResult, error) {
	return s.compose.AddNavigationView(ctx, actor, p)
}

// EditNavigationView changes whether one of the actor's views is pinned and/or a custom
// view's name, and sends a navigation_view update event with the changed properties.
func (s *Service) EditNavigationView(ctx context.Context, actor Actor, p EditNavigationViewParams) (EditNavigationViewResult, error) {
	return s.compose.EditNavigationView(ctx, actor, p)
}

// RemoveNavigationView removes one of the actor's views (a built-in view returns to its
// defaults) and sends a navigation_view remove event.
func (s *Service) RemoveNavigationView(ctx context.Context, actor Actor, p RemoveNavigationViewParams) (RemoveNavigationViewResult, error) {
	return s.compose.RemoveNavigationView(ctx, actor, p)
}

// GetSavedSnippets returns the actor's saved snippets.
func (s *Service) GetSavedSnippets(ctx context.Context, actor Actor, p GetSavedSnippetsParams) (GetSavedSnippetsResult, error) {
	return s.compose.GetSavedSnippets(ctx, actor, p)
}

// CreateSavedSnippet stores a snippet of the actor (title and content stripped, neither
// blank) and sends a saved_snippets add event to the actor.
func (s *Service) CreateSavedSnippet(ctx context.Context, actor Actor, p CreateSavedSnippetParams) (CreateSavedSnippetResult, error) {
	return s.compose.CreateSavedSnippet(ctx, actor, p)
}

// EditSavedSnippet changes the title and/or content of one of the actor's snippets and sends
// a saved_snippets update event with the whole record. Neither field given changes nothing
// and sends nothing.
func (s *Service) EditSavedSnippet(ctx context.Context, actor Actor, p EditSavedSnippetParams) (EditSavedSnippetResult, error) {
	return s.compose.EditSavedSnippet(ctx, actor, p)
}

// DeleteSavedSnippet removes one of the actor's snippets and sends a saved_snippets remove
// event.
func (s *Service) DeleteSavedSnippet(ctx context.Context, actor Actor, p DeleteSavedSnippetParams) (DeleteSavedSnippetResult, error) {
	return s.compose.DeleteSavedSnippet(ctx, actor, p)
}

func (s *Service) DeliverScheduledMessages(ctx context.Context, p DeliverScheduledMessagesParams) (DeliverScheduledMessagesResult, error) {
	return s.compose.DeliverScheduledMessages(ctx, p)
}

// StartScheduler starts delivering scheduled messages and reminders in the background: every
// Options.SchedulerInterval (default 1s) it calls DeliverScheduledMessages, so that each
// message goes out within that interval of its time (by the Service's clock), including
// messages that fell due while no process ran; and with them the messages that triggered
// outgoing webhooks and embedded bots (DeliverServiceJobs); and every
// Options.RetentionInterval the message retention pass (ArchiveMessages). Close stops them. An embedder that
// does not call it (tests) delivers with DeliverScheduledMessages and DeliverServiceJobs;
// calling it twice does nothing more.
func (s *Service) StartScheduler() {
	s.compose.StartScheduler()
	s.bots.Start()
	s.notify.Start()
	s.retention.Start()
}

func (s *Service) GetScheduledMessages(ctx context.Context, actor Actor, p GetScheduledMessagesParams) (GetScheduledMessagesResult, error) {
	return s.compose.GetScheduledMessages(ctx, actor, p)
}

func (s *Service) CreateScheduledMessage(ctx context.Context, actor Actor, p CreateScheduledMessageParams) (CreateScheduledMessageResult, error) {
	return s.compose.CreateScheduledMessage(ctx, actor, p)
}

func (s *Service) UpdateScheduledMessage(ctx context.Context, actor Actor, p UpdateScheduledMessageParams) (UpdateScheduledMessageResult, error) {
	return s.compose.UpdateScheduledMessage(ctx, actor, p)
}

func (s *Service) DeleteScheduledMessage(ctx context.Context, actor Actor, p DeleteScheduledMessageParams) (DeleteScheduledMessageResult, error) {
	return s.compose.DeleteScheduledMessage(ctx, actor, p)
}

func (s *Service) GetReminders(ctx context.Context, actor Actor, p GetRemindersParams) (GetRemindersResult, error) {
	return s.compose.GetReminders(ctx, actor, p)
}

func (s *Service) CreateMessageReminder(ctx context.Context, actor Actor, p CreateMessageReminderParams) (CreateMessageReminderResult, error) {
	return s.compose.CreateMessageReminder(ctx, actor, p)
}

func (s *Service) DeleteReminder(ctx context.Context, actor Actor, p DeleteReminderParams) (DeleteReminderResult, error) {
	return s.compose.DeleteReminder(ctx, actor, p)
}

// ScheduledMessageLateCutoff is compose.ScheduledMessageLateCutoff.
const ScheduledMessageLateCutoff = compose.ScheduledMessageLateCutoff
