// Package chat is a Zulip-compatible team-chat engine: the Service type has one method per
// operation of the Zulip API (named after its operationId), works on any storage.Storage
// backend, and delivers real-time events through in-process event queues.
//
// Every method takes a context first, then the acting user (an Actor produced by one of the
// authentication methods) where the operation has one, then a Params struct; it returns a Result
// struct and an error. Errors are *Error values carrying the API's code and HTTP status.
//
// Each mutation runs in one storage transaction; the events it causes are collected during the
// transaction and published only after it commits, in commit order. Registration of an event
// queue is race-free: the state it returns plus every event delivered after its last_event_id
// equals the true state. The kernel that keeps these promises is internal/engine: read and
// mutate, the gates, the error type and codes, the events of a transaction, and the order of
// commits and publications. On SQLite, whose commits each cost an fsync and come one at a time,
// concurrent mutations share commits (group commit): a group's bodies run in one transaction,
// each as if in a savepoint. On PostgreSQL (without a Bus) sends overlap: their transactions
// run side by side and their events go out in the order of a ticket each takes just before its
// commit. The engine's package documentation gives the argument for each. No operation can
// reach the write lock, the commit groups or the overlap state: they are the engine's own.
//
// Several processes may share one store and its events (Options.Bus, Options.NodeID; the
// PostgreSQL implementation is eventbus/pgbus). The only change to the write path is where the
// events go: the Service hands each transaction's events to the bus inside that transaction
// (the bus finds its own way into it through the optional storage.SQLTx capability), so the
// database delivers them to every process on commit, in commit order, and never for a
// rollback; each process then fills its own queues. Without a Bus the in-process path is
// unchanged. Queue ids name the node holding the queue ("NODE:UUID"); httpapi forwards event
// requests to it. bus.go details the design, including race-free registration across
// processes.
//
// Imports: the area packages (org, bots, transfer, people, files, notify, retention,
// narrows, conversations, typing, emailgateway, compose), internal/engine, internal/world,
// internal/clients, the leaf domain packages, storage, queue, ratelimit and markdown; never a
// storage backend and never httpapi.
//
// # Where the code lives
//
// The root is a map (see ARCHITECTURE in the shared docs). Below it, a kernel:
// internal/engine (transactions, gates, errors, events, commit order), internal/world (the
// facts of one transaction and the access predicates) and internal/clients (what a client
// declared at register). Above the kernel, one package per area, each owning its operations
// and their Params, Result, Record and Event types, and importing only the kernel, storage,
// the leaves and the areas below it, in this order from the bottom:
//
//	org            the organization: settings, custom emoji, calls, domains, linkifiers,
//	               playgrounds, and what the server says of itself before login
//	bots           bot storage, outgoing webhooks, embedded bots in Go
//	transfer       exports in Zulip's format and their import, backups
//	people         accounts, authentication and sessions, bots, groups, invitations,
//	               settings, statuses, profile fields, muted users, alert words, devices,
//	               onboarding, presence
//	files          uploads, attachments, thumbnails, avatars
//	notify         missed-message and digest emails (pending rows and their worker)
//	retention      message retention: the periodic archiving pass, restores, the purge
//	narrows        narrows and search resolved against the world, who may read a message
//	conversations  channels, subscriptions, folders, topics, messages, flags, reactions,
//	               read state
//	typing         typing notifications and the expiry of their starts
//	emailgateway   the channels' email addresses and the emails posted through them
//	compose        drafts, saved snippets, navigation views, scheduled messages, reminders
//
// And this package on top, the facade: the Service, whose method per operation delegates to
// an area in one line, with aliases of the areas' types so that embedders' code keeps
// compiling; New and Close (service.go), Options (service_options.go); register with its initial state, the
// queues and the bus; and the wiring of the steps an area's operation takes in an area above
// it (people.Hooks). TestAreaGraph (internal/areagraph) keeps the graph of the facade's files
// acyclic and TestImportDirection the packages' imports.
//
// A step that one area's operation needs from an area above it (creating a user subscribes
// them to channels) is a hook the lower area declares and New sets, not an import.
//
// # How to add an operation
//
// A new operation goes into the package of its area (the file of its aspect there: each
// area's doc.go maps its files), and the Service gets a method of one line that delegates to
// it, with aliases of its new types (org.go, people.go, files.go, conversations.go,
// compose.go). A part of an area that its other parts do not need (the email gateway, typing)
// is a package of its own above the area, and one that they all read (narrows, who may read a
// message) a package below it, so that an area stays readable (under ~9k lines). An operation that spans areas (none does yet) goes in the facade, in the file of
// the area it mostly changes. The operation is a
// method named after Zulip's operationId. It reads: check the form of the parameters (no
// transaction needed), then one call of the engine's Read (a read-only transaction) or Mutate
// (a write transaction whose events are published after commit) with the operation's gate,
// then shape the result (package compose):
//
//	// DeleteDraftParams are the parameters of DELETE /drafts/{draft_id}.
//	type DeleteDraftParams struct {
//		DraftID drafts.ID
//	}
//
//	// DeleteDraftResult is empty.
//	type DeleteDraftResult struct{}
//
//	// DeleteDraft removes one of the actor's drafts and sends a drafts remove event to the actor.
//	func (s *Service) DeleteDraft(ctx context.Context, actor engine.Actor, p DeleteDraftParams) (DeleteDraftResult, error) {
//		err := s.eng.Mutate(ctx, actor, draftsUsers, func(o *engine.WriteOp) error {
//			if err := engine.NotFound(o.Tx.Drafts().Delete(o.Me.ID, p.DraftID), errDraftNotFound); err != nil {
//				return err
//			}
//			o.Ev.Emit(DraftsEvent{Type: "drafts", Op: "remove", DraftID: p.DraftID}, []int64{int64(o.Me.ID)})
//			return nil
//		})
//		return DeleteDraftResult{}, err
//	}
//
// and a read that decides with the world (package conversations, topics_get.go):
//
//	func (s *Service) GetStreamTopics(ctx context.Context, actor engine.Actor, p GetStreamTopicsParams) (GetStreamTopicsResult, error) {
//		res := GetStreamTopicsResult{Topics: []TopicRecord{}}
//		err := s.eng.Read(ctx, actor, engine.SignedIn, func(o *engine.ReadOp) error {
//			me, w := o.Me, o.World()
//			c, ok := w.Channel(p.StreamID)
//			if !ok || !w.Metadata(c, me) {
//				return ErrInvalidChannelID
//			}
//			list, err := o.Tx.Messages().Topics(c.ID, me.ID, w.Content(c, me))
//			...
//		})
//		...
//	}
//
// What the engine gives the body, o (engine.ReadOp, engine.WriteOp):
//   - o.Me, the acting user, loaded once inside the transaction, who passed the gate:
//     engine.NoActor, Spectators, SignedIn, Humans, Members, Admins, Owners
//     (internal/engine/actor.go), or an area's own gate built on them (draftsUsers,
//     nonGuests, userCreators). Finer checks (the owner of this bot, the administrator of this
//     channel) are the body's first lines.
//   - o.Now, the operation's time, read once per run; never read the clock in or before a body.
//   - o.Tx, the transaction (writable in a mutation); o.World(), the organization, groups,
//     channels, users and subscribers, read on first use and cached for the transaction
//     (internal/world). A failed read of the world is its sticky error: the engine returns it
//     when the body returns, so the body needs no error handling for world reads.
//   - o.Ev (mutations): o.Ev.Emit(event, recipients) records an event, published only
//     after the commit, under the type its payload names (engine.Event: each area's
//     event_types.go says which Zulip event each of its types is); o.Ev.AfterCommit(fn) runs
//     other work then.
//   - engine.NotFound(err, errXNotFound) turns storage.ErrNotFound into the area's error,
//     which each area defines once (errDraftNotFound, errChannelIDNotFound, ...).
//
// The store may run the body more than once (SQLite busy, PostgreSQL serialization failures):
// the body only reads, writes and adds events. Queues, timers, files, mail and network calls
// happen before Mutate, after it returns, or in o.Ev.AfterCommit. Errors are *engine.Error
// values (chat.Error) with Zulip's code and wording (internal/engine/errors.go); validation
// errors name the parameter.
//
// Beside the method: the storage it needs on both backends with a storagetest case; for a
// mutation, a case in the consistency harness (consistency_test.go), a golden file per new
// event and a row in httpapi's authorization matrix; the route in httpapi/routes.go. The
// tests of an area's operations through the Service sit here, in <area>_<aspect>_test.go
// (people_users_test.go), beside the fixtures they share.
//
// # Code map
//
// Every file of the package is named <area>.go or <area>_<aspect>.go, with one of the areas
// below (TestFilesFollowCodeMap keeps it so). An operation lives in its area's file for its
// aspect: the operation X of Zulip's API is the method Service.X, in the file listed beside it.
// A new operation goes into the file of its area and aspect, or a new <area>_<aspect>.go.
//
//	kernel    the aliases of the engine's error type and codes (kernel_errors.go); Actor
//	          (kernel_actors.go); the limits register reports and the areas
//	          enforce (kernel_limits.go)
//	service   New, Close, Now and the publication of events (service.go); Options and the
//	          server's version (service_options.go); CountAPIRequest
//	          (service_ratelimit.go); QueueStats and the Monitor hook (service_stats.go)
//	world     (internal/world) the per-transaction view of the organization that decisions
//	          read: users, groups, channels, subscribers, channel activity, access predicates
//	bus       several processes sharing one store's events (bus.go); the owners of each
//	          process's queues reported to the store, "online" for the emails (bus_live.go)
//	events    RegisterQueue, GetEvents, DeleteQueue (events_register.go); the initial state of
//	          register (events_state.go, and each area's *_state.go or *State function); event
//	          payloads (events.go); queues kept across restarts (events_persist.go); all_public_streams
//	          queues (events_public.go); one encoding per form of an event (events_forms.go)
//	org       the facade of package org (org.go): the organization's settings, custom emoji,
//	          video calls, domains, linkifiers and playgrounds (org/doc.go maps its files)
//	people    the facade of package people (people.go): accounts, authentication and
//	          sessions, bots, groups, invitations, settings, statuses, profile fields, muted
//	          users, alert words, devices, onboarding and presence (people/doc.go maps its
//	          files); the Hooks it takes from the conversations (channels_subscribe.go,
//	          channels_notices.go, topics_delete.go, messages_read.go)
//	conversations
//	          the facade of package conversations (conversations.go): channels and
//	          subscriptions, folders, topics, messages, flags, reactions, read state
//	          (conversations/doc.go maps its files); narrows and search are package
//	          narrows' (register's narrow: events_register.go); and the facades of packages
//	          typing (SetTypingStatus, SetTypingStatusForMessageEdit) and emailgateway
//	          (GetStreamEmailAddress, EmailMirrorMessage)
//	compose   the facade of package compose (compose.go): drafts, saved snippets, navigation
//	          views, scheduled messages and reminders, and the scheduler that delivers them
//	          (compose/doc.go maps its files)
//	bots      the facade of package bots (bots.go): bot storage, outgoing webhooks and
//	          embedded bots, and the send path it posts with (sendAsBot); the jobs a send
//	          queues for the service bots it triggers are the conversations'
//	          (conversations/messages_servicebots.go)
//	notify    the facade of package notify (notify.go): missed-message and digest emails
//	          and their worker, the operator's SendTestEmail, the EmailMonitor hook; the
//	          rows a send writes are queued from conversations/messages_send.go
//	retention the facade of package retention (retention.go): the message retention pass
//	          (ArchiveMessages, in the background with StartScheduler) and RestoreArchive
//	drafts    the tests of drafts and saved snippets (package compose; register's sections of
//	          compose, linkifiers and playgrounds: compose.DraftsStateOf, compose/state.go)
//	export    the facade of package transfer (export.go): ExportRealm, GetRealmExports,
//	          DeleteRealmExport, GetRealmExportConsents, GetRealmExportFile
//	files     the facade of package files (files.go): uploads, attachments, thumbnails,
//	          avatars and the images served under /user_avatars/ (files/doc.go maps its files)
//
// # Test files
//
// A test sits beside its code (x.go, x_test.go) or in <area>_<behaviour>_test.go. The shared
// test machinery has its own prefixes:
//
//	applier      the event applier of the consistency harness
//	bench        benchmarks (numbers in BENCHMARKS.md)
//	consistency  the consistency harness: state + events = fresh state, for every mutation
//	cpu          CPU time per benchmark operation
//	doc          this map's test
//	example      Example functions
//	export       test access to unexported names
//	golden       golden files of events (testdata/)
//	helpers      test helpers
//	imports      the import direction of every package
//	stress       concurrent operations under -race
package chat
