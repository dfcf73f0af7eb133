package webclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	chat "github.com/teamchat/chat"
	blobsmemory "github.com/teamchat/chat/blobs/memory"
	"github.com/teamchat/chat/httpapi"
	"github.com/teamchat/chat/internal/pgtest"
	"github.com/teamchat/chat/ratelimit"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/webclient"
)

// requireBrowserEnv, when set to 1 (as .ci/run sets it), makes the browser tests fail instead
// of skipping when no browser is found.
const requireBrowserEnv = "WEBCLIENT_REQUIRE_BROWSER"

// storeEnv picks the store of the browser tests' server: sqlite (default, in t.TempDir()),
// memory, or postgres (CHAT_TEST_POSTGRES_URL, a fresh schema per test).
const storeEnv = "WEBCLIENT_TEST_STORE"

// findBrowser is the Chromium to drive: $CHROMIUM, else the Debian package's or another
// usual name on PATH.
func findBrowser(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv(requireBrowserEnv) == "1" {
		t.Fatalf("no Chromium found (install Debian's chromium package, or set CHROMIUM) and %s=1", requireBrowserEnv)
	}
	t.Skipf("browser test skipped: no Chromium found (apt-get install chromium, or set CHROMIUM=/path); %s=1 makes this a failure", requireBrowserEnv)
	return ""
}

// server is the API and the web client on a loopback port, on a store that outlives a
// restart of the Service (see restart).
type server struct {
	t     *testing.T
	URL   string
	addr  string
	store storage.Storage
	blobs *blobsmemory.Store
	svc   *chat.Service
	http  *http.Server
	done  chan struct{}
}

func cheapHashing() chat.PasswordHashing {
	return chat.PasswordHashing{MemoryKiB: 8, Passes: 1, Threads: 1}
}

// openTestStore opens the store storeEnv names.
func openTestStore(t *testing.T) storage.Storage {
	t.Helper()
	ctx := context.Background()
	switch kind := os.Getenv(storeEnv); kind {
	case "memory":
		return memory.New()
	case "postgres":
		store, err := sqlstore.Open(ctx, pgtest.Schema(t))
		if err != nil {
			t.Fatal(err)
		}
		return store
	case "", "sqlite":
		store, err := sqlstore.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "chat.db"))
		if err != nil {
			t.Fatal(err)
		}
		return store
	default:
		t.Fatalf("%s=%q: want sqlite, memory or postgres", storeEnv, kind)
		return nil
	}
}

// startServer serves the development organization (seeds.Dev) through webclient.New.
func startServer(t *testing.T) *server {
	t.Helper()
	s := &server{t: t, store: openTestStore(t), blobs: blobsmemory.New()}
	ln := s.listen()
	s.startService()
	if _, err := seeds.Dev(seeds.DevPassword).Apply(context.Background(), s.svc, s.URL); err != nil {
		t.Fatal(err)
	}
	s.serve(ln)
	t.Cleanup(func() {
		s.stop()
		s.store.Close()
	})
	return s
}

// listen opens the server's loopback listener and sets its URL.
func (s *server) listen() net.Listener {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	s.URL = "http://" + s.addr
	return ln
}

func (s *server) startService() {
	opts := chat.Options{
		Store: s.store, Dev: true, PasswordHashing: cheapHashing(),
		APIRateLimit: &ratelimit.Rule{}, AnonymousAPIRateLimit: &ratelimit.Rule{},
		Logger:        slog.New(slog.NewTextHandler(io.Discard, nil)),
		HeartbeatWait: 5 * time.Second,
	}
	if s.blobs != nil {
		opts.Blobs = s.blobs
	}
	svc, err := chat.New(opts)
	if err != nil {
		s.t.Fatal(err)
	}
	s.svc = svc
}

func (s *server) serve(ln net.Listener) {
	api := httpapi.New(s.svc, httpapi.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	s.http = &http.Server{Handler: webclient.New(api, webclient.Options{}), ReadHeaderTimeout: 10 * time.Second}
	s.done = make(chan struct{})
	go func() { defer close(s.done); _ = s.http.Serve(ln) }()
}

// stop ends the Service (its long-polls end, its queues are saved in the store) and the HTTP
// server, as a graceful stop of chatserver does.
func (s *server) stop() {
	if s.svc == nil {
		return
	}
	s.svc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = s.http.Shutdown(ctx)
	<-s.done
	s.svc = nil
}

// restart stops the server and starts a new Service on the same store and address; before
// it serves HTTP, beforeServe (when not nil) may use the new Service (s.svc).
func (s *server) restart(beforeServe func()) {
	s.t.Helper()
	s.stop()
	var ln net.Listener
	var err error
	for range 50 {
		if ln, err = net.Listen("tcp", s.addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		s.t.Fatal(err)
	}
	s.startService()
	if beforeServe != nil {
		beforeServe()
	}
	s.serve(ln)
}

// actor is the development user with this email.
func (s *server) actor(email string) chat.Actor {
	s.t.Helper()
	r, err := s.svc.DevFetchAPIKey(context.Background(), chat.DevFetchAPIKeyParams{Username: email})
	if err != nil {
		s.t.Fatal(err)
	}
	return chat.Actor{UserID: r.UserID}
}

// apiKey is the API key of a development user.
func (s *server) apiKey(email string) string {
	s.t.Helper()
	r, err := s.svc.DevFetchAPIKey(context.Background(), chat.DevFetchAPIKeyParams{Username: email})
	if err != nil {
		s.t.Fatal(err)
	}
	return r.APIKey
}

// api calls /api/v1/PATH as the user with this email, as any API client would, and returns the
// decoded answer (failing the test on an error envelope).
func (s *server) api(email, method, path string, form url.Values) map[string]any {
	s.t.Helper()
	var body io.Reader
	target := s.URL + "/api/v1/" + path
	if method == http.MethodGet {
		target += "?" + form.Encode()
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, target, body)
	req.SetBasicAuth(email, s.apiKey(email))
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	if out["result"] != "success" {
		s.t.Fatalf("%s %s: %v", method, path, out)
	}
	return out
}

// uploadEmoji adds a custom emoji to the organization as email.
func (s *server) uploadEmoji(email, name string, png []byte) {
	s.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, _ := mw.CreateFormFile("file", name+".png")
	_, _ = w.Write(png)
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/v1/realm/emoji/"+name, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.SetBasicAuth(email, s.apiKey(email))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(res.Body)
		s.t.Fatalf("upload emoji %s: %d %s", name, res.StatusCode, msg)
	}
}

// send sends a channel message as email and returns its id.
func (s *server) send(email, channel, topic, content string) int {
	s.t.Helper()
	r := s.api(email, http.MethodPost, "messages", url.Values{"type": {"stream"}, "to": {channel}, "topic": {topic}, "content": {content}})
	return int(r["id"].(float64))
}

// browser is a headless Chromium tab.
type browser struct {
	t   *testing.T
	ctx context.Context
	// dialogs are the messages of the JavaScript dialogs the page opened (each accepted).
	dialogs chan string
	// mu guards queues, the queue ids of the page's registers (read from the network).
	mu        sync.Mutex
	queues    []string
	registers map[network.RequestID]bool
}

// queue is the event queue of the page's latest register.
func (b *browser) queue() string {
	b.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b.mu.Lock()
		n := len(b.queues)
		q := ""
		if n > 0 {
			q = b.queues[n-1]
		}
		b.mu.Unlock()
		if q != "" {
			return q
		}
		if time.Now().After(deadline) {
			b.t.Fatal("the page registered no event queue")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// watchRegisters records the queue id of every answer to POST /json/register.
func (b *browser) watchRegisters(ev any) {
	switch ev := ev.(type) {
	case *network.EventResponseReceived:
		if strings.HasSuffix(ev.Response.URL, "/json/register") {
			b.mu.Lock()
			b.registers[ev.RequestID] = true
			b.mu.Unlock()
		}
	case *network.EventLoadingFinished:
		b.mu.Lock()
		ok := b.registers[ev.RequestID]
		delete(b.registers, ev.RequestID)
		b.mu.Unlock()
		if !ok {
			return
		}
		go func() {
			var body []byte
			err := chromedp.Run(b.ctx, chromedp.ActionFunc(func(ctx context.Context) error {
				var err error
				body, err = network.GetResponseBody(ev.RequestID).Do(ctx)
				return err
			}))
			var r struct {
				QueueID string `json:"queue_id"`
			}
			if err == nil && json.Unmarshal(body, &r) == nil && r.QueueID != "" {
				b.mu.Lock()
				b.queues = append(b.queues, r.QueueID)
				b.mu.Unlock()
			}
		}()
	}
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	path := findBrowser(t)
	// The profile is removed after the browser exits (not by t.TempDir, whose clean-up may run
	// while Chromium still writes to it).
	profile, err := os.MkdirTemp("", "webclient-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 860),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() {
		cancelTimeout()
		cancel()
		cancelAlloc()
		for range 20 {
			if os.RemoveAll(profile) == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	b := &browser{t: t, ctx: ctx, dialogs: make(chan string, 100), registers: map[network.RequestID]bool{}}
	chromedp.ListenTarget(ctx, func(ev any) {
		b.watchRegisters(ev)
		switch ev := ev.(type) {
		case *page.EventJavascriptDialogOpening:
			b.dialogs <- ev.Message
			go func() { _ = chromedp.Run(ctx, page.HandleJavaScriptDialog(true)) }()
		case *runtime.EventExceptionThrown:
			t.Logf("browser: uncaught exception: %s", ev.ExceptionDetails.Error())
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeWarning {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				t.Logf("browser console %s: %s", ev.Type, strings.Join(args, " "))
			}
		}
	})
	if err := chromedp.Run(ctx, network.Enable()); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	return b
}

func (b *browser) run(actions ...chromedp.Action) {
	b.t.Helper()
	if err := chromedp.Run(b.ctx, actions...); err != nil {
		b.t.Fatal(err)
	}
}

// find waits for the element of this ARIA role and accessible name (as screen readers see
// it: Chromium's accessibility tree) and returns its node.
func (b *browser) find(role, name string) cdp.BackendNodeID {
	b.t.Helper()
	return b.findIn(0, role, name)
}

// node is the element a JavaScript expression returns.
func (b *browser) node(expr string) cdp.BackendNodeID {
	b.t.Helper()
	var id cdp.BackendNodeID
	b.run(chromedp.ActionFunc(func(ctx context.Context) error {
		obj, exc, err := runtime.Evaluate(expr).Do(ctx)
		if err != nil {
			return err
		}
		if exc != nil || obj.ObjectID == "" {
			return fmt.Errorf("%s: no element", expr)
		}
		n, err := dom.DescribeNode().WithObjectID(obj.ObjectID).Do(ctx)
		if err != nil {
			return err
		}
		id = n.BackendNodeID
		return nil
	}))
	return id
}

// findIn is find among the descendants of within (0: the whole page).
func (b *browser) findIn(within cdp.BackendNodeID, role, name string) cdp.BackendNodeID {
	b.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var id cdp.BackendNodeID
		// Each attempt is bounded: during a navigation chromedp may wait for a document that
		// the next one replaces.
		attempt, cancel := context.WithTimeout(b.ctx, 2*time.Second)
		err := chromedp.Run(attempt, chromedp.ActionFunc(func(ctx context.Context) error {
			root := within
			if root == 0 {
				doc, err := dom.GetDocument().Do(ctx)
				if err != nil {
					return err
				}
				root = doc.BackendNodeID
			}
			nodes, err := accessibility.QueryAXTree().WithBackendNodeID(root).WithAccessibleName(name).WithRole(role).Do(ctx)
			if err != nil {
				return err
			}
			for _, n := range nodes {
				if !n.Ignored && n.BackendDOMNodeID != 0 {
					id = n.BackendDOMNodeID
					return nil
				}
			}
			return errNotYet
		}))
		cancel()
		if err == nil {
			return id
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("no %s named %q: %v", role, name, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

var errNotYet = errors.New("not yet")

// call runs a JavaScript function with the node as this.
func (b *browser) call(node cdp.BackendNodeID, fn string) {
	b.t.Helper()
	b.run(chromedp.ActionFunc(func(ctx context.Context) error {
		obj, err := dom.ResolveNode().WithBackendNodeID(node).Do(ctx)
		if err != nil {
			return err
		}
		_, exc, err := runtime.CallFunctionOn(fn).WithObjectID(obj.ObjectID).WithAwaitPromise(true).Do(ctx)
		if exc != nil {
			return fmt.Errorf("%s: %s", fn, exc.Text)
		}
		return err
	}))
}

// click clicks the element of this role and name.
func (b *browser) click(role, name string) {
	b.t.Helper()
	b.clickNode(b.find(role, name))
}

func (b *browser) clickNode(node cdp.BackendNodeID) {
	b.t.Helper()
	b.call(node, "function() { this.scrollIntoView({block: 'center'}); this.click(); }")
}

// message is the node of the shown message whose text contains text.
func (b *browser) message(text string) cdp.BackendNodeID {
	b.t.Helper()
	b.wait(messageCount(text)+" === 1", 5*time.Second)
	q, _ := json.Marshal(text)
	return b.node(fmt.Sprintf(`[...document.querySelectorAll('[aria-label=Messages] article.message')].find(a => a.querySelector('.message-content')?.textContent.includes(%s))`, q))
}

// fill focuses the element of this role and name, selects its text and types text over it.
func (b *browser) fill(role, name, text string) {
	b.t.Helper()
	node := b.find(role, name)
	b.call(node, "function() { this.focus(); if (this.select) this.select(); }")
	b.run(chromedp.ActionFunc(func(ctx context.Context) error {
		if err := input.DispatchKeyEvent(input.KeyRawDown).WithKey("Backspace").WithCode("Backspace").WithWindowsVirtualKeyCode(8).Do(ctx); err != nil {
			return err
		}
		if err := input.DispatchKeyEvent(input.KeyUp).WithKey("Backspace").WithCode("Backspace").WithWindowsVirtualKeyCode(8).Do(ctx); err != nil {
			return err
		}
		return input.InsertText(text).Do(ctx)
	}))
}

// press sends a key (with modifiers: input.ModifierCtrl, ...) to the focused element.
func (b *browser) press(key string, code string, vk int64, modifiers input.Modifier) {
	b.t.Helper()
	b.run(chromedp.ActionFunc(func(ctx context.Context) error {
		if err := input.DispatchKeyEvent(input.KeyRawDown).WithKey(key).WithCode(code).WithWindowsVirtualKeyCode(vk).WithModifiers(modifiers).Do(ctx); err != nil {
			return err
		}
		if key == "Enter" {
			if err := input.DispatchKeyEvent(input.KeyChar).WithText("\r").WithModifiers(modifiers).Do(ctx); err != nil {
				return err
			}
		}
		return input.DispatchKeyEvent(input.KeyUp).WithKey(key).WithCode(code).WithWindowsVirtualKeyCode(vk).WithModifiers(modifiers).Do(ctx)
	}))
}

// wait polls a JavaScript expression until it is truthy (across navigations: an evaluation
// that a navigation interrupts is tried again).
func (b *browser) wait(expr string, timeout time.Duration) {
	b.t.Helper()
	deadline := time.Now().Add(timeout)
	var lastErr error
	for {
		var ok bool
		attempt, cancel := context.WithTimeout(b.ctx, 2*time.Second)
		lastErr = chromedp.Run(attempt, chromedp.Evaluate("!!("+expr+")", &ok))
		cancel()
		if lastErr == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	var dump string
	_ = chromedp.Run(b.ctx, chromedp.Evaluate(`'(focused: ' + (document.activeElement && document.activeElement.getAttribute('aria-label')) + ', value: ' + JSON.stringify(document.activeElement && document.activeElement.value) + ')\n' + document.body.innerText.slice(0, 2000)`, &dump))
	b.t.Fatalf("waiting for %s (last error: %v)\npage text:\n%s", expr, lastErr, dump)
}

// eval evaluates a JavaScript expression into out.
func (b *browser) eval(expr string, out any) {
	b.t.Helper()
	b.run(chromedp.Evaluate(expr, out))
}

// login opens the organization's URL, which sends the browser to the login page, and logs
// in with the password form.
func (b *browser) login(s *server, email string) {
	b.t.Helper()
	b.run(chromedp.Navigate(s.URL + "/"))
	b.wait(`location.pathname === '/login/' && document.readyState === 'complete'`, 10*time.Second)
	b.fill("textbox", "Email", email)
	b.fill("textbox", "Password", seeds.DevPassword)
	b.click("button", "Log in")
	b.wait(`location.pathname === '/' && document.readyState === 'complete'`, 10*time.Second)
	b.find("navigation", "Channels")
	b.wait(`document.querySelector('[role=log][aria-label=Messages]') && document.querySelector('[role=log]').getAttribute('aria-busy') === 'false'`, 10*time.Second)
}

// messageCount is the expression counting the shown messages whose text contains s.
func messageCount(s string) string {
	q, _ := json.Marshal(s)
	return fmt.Sprintf(`[...document.querySelectorAll('[aria-label=Messages] article.message .message-content')].filter(e => e.textContent.includes(%s)).length`, q)
}
