// Package chattest is the httptest of the chat engine: one call gives a test a Service on the
// in-memory store with an organization, its users ready to act as, and a clock the test
// controls; another serves the Zulip API in-process, so that code using any Zulip client
// library can be tested against it.
//
//	f := chattest.New(t, chattest.Dev())         // the organization of `chatserver serve --dev`
//	iago := f.User("iago@zulip.com")             // ID, API key, password; Actor() for the Service
//	f.Service.SendMessage(ctx, iago.Actor(), ...)
//	f.Clock.Advance(time.Hour)                   // the Service's injected clock
//
//	s := chattest.NewServer(t, chattest.Dev())   // s.URL serves /api/v1/...
//	rc := s.Zuliprc("hamlet@zulip.com")          // [api] email, key, site
//
// Every fixture has its own store, Service and clock, closed through t.Cleanup, so tests using
// fixtures may run with t.Parallel(). Fixtures are cheap: passwords are hashed at a low cost
// (never use the package for a real server), API rate limits are off, and the development
// organization is built once per process and copied for each fixture (memory.Store.Clone).
//
// chattest imports chat, httpapi, seeds, storage, storage/memory and the leaf packages.
package chattest
