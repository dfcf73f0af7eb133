package chattest

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/teamchat/chat/httpapi"
)

// Server is a fixture whose Service serves the Zulip API on a loopback port, like an
// httptest.Server: Zulip clients reach it at URL (the organization's URL) with the users' API
// keys.
type Server struct {
	*Fixture
	// HTTP is the underlying test server (HTTP.Client() is a client for it).
	HTTP *httptest.Server
}

// NewServer returns a fixture serving the API (see New for opts), closed by t.Cleanup.
func NewServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s, err := startServer(t, opts)
	if err != nil {
		t.Fatalf("chattest: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// StartServer is NewServer for code that has no testing.TB; the caller closes the server.
func StartServer(opts ...Option) (*Server, error) { return startServer(nil, opts) }

func startServer(tb testing.TB, opts []Option) (*Server, error) {
	// The organization's URL is the server's, so the listener comes first.
	hs := httptest.NewUnstartedServer(http.NotFoundHandler())
	f, err := start("http://"+hs.Listener.Addr().String(), tb, opts)
	if err != nil {
		hs.Close()
		return nil, err
	}
	hs.Config.Handler = httpapi.New(f.Service, httpapi.Options{Logger: f.logger()})
	hs.Start()
	return &Server{Fixture: f, HTTP: hs}, nil
}

// Close ends the Service's long-polls, then closes the HTTP server (which waits for its
// requests) and the store. NewServer's cleanup calls it; it may be called more than once.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.logOff.Store(true)
		err := s.Service.Close()
		s.HTTP.Close()
		s.closeErr = errors.Join(err, s.Store.Close())
	})
	return s.closeErr
}

// Zuliprc returns the text of a .zuliprc for the user with this email ([api] section with
// email, key and site), read by the python `zulip` package, zulip-js, zulip-terminal and
// others.
func (s *Server) Zuliprc(email string) string {
	if s.tb != nil {
		s.tb.Helper()
	}
	u := s.User(email)
	return httpapi.Zuliprc(u.Email, u.APIKey, s.URL)
}

// ZuliprcFile writes Zuliprc(email) to a file in the test's temporary directory and returns
// its path (for clients that read a file). It needs a server from NewServer.
func (s *Server) ZuliprcFile(email string) string {
	if s.tb == nil {
		panic("chattest: ZuliprcFile needs a server from NewServer; write Zuliprc's text yourself")
	}
	s.tb.Helper()
	path := filepath.Join(s.tb.TempDir(), "zuliprc")
	if err := os.WriteFile(path, []byte(s.Zuliprc(email)), 0o600); err != nil {
		s.tb.Fatalf("chattest: %v", err)
	}
	return path
}
