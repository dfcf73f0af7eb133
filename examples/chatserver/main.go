package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/alecthomas/kong"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/httpapi"
	"github.com/teamchat/chat/ratelimit"
	"github.com/teamchat/chat/seeds"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/webclient"
)

// cli is the command line.
type cli struct {
	LogLevel slog.Level `help:"Log level (debug, info, warn, error)." default:"info"`
	Serve    serveCmd   `cmd:"" help:"Serve the API."`
	Zuliprc  zuliprcCmd `cmd:"" help:"Write a .zuliprc (site, email, API key) for a user of the organization that serve would use."`
	Backup   backupCmd  `cmd:"" help:"Copy a live SQLite store and its uploads into one archive, without stopping it."`
	Export   exportCmd  `cmd:"" help:"Write the organization in Zulip's export format (a .tar.gz)."`
	Import   importCmd  `cmd:"" help:"Fill an empty store from a backup archive or an organization in Zulip's export format."`
}

// orgFlags choose the store and how an empty one is provisioned. serve and zuliprc share
// them, so that zuliprc given the same flags finds the same organization.
type orgFlags struct {
	Listen      string `help:"Address to listen on; port 0 picks a free port (serve reports the address it bound)." default:"127.0.0.1:9991"`
	Store       string `help:"Storage: sqlite:PATH (a file, created if missing), postgres://USER@HOST:PORT/DB?sslmode=disable, or memory (lost on exit)." default:"sqlite:./chat.db"`
	RealmURL    string `help:"Canonical URL of the organization (default: http://LISTEN)." name:"realm-url"`
	Dev         bool   `help:"Seed a development organization mirroring Zulip's and enable the dev login endpoints."`
	DevPassword string `help:"Password of every --dev user." name:"dev-password" default:"devpassword"`
	Seed        string `help:"Load an organization from this JSON seed file into an empty store." type:"existingfile"`
}

type serveCmd struct {
	orgFlags          `embed:""`
	clusterFlags      `embed:""`
	JWTKeyFile        string        `help:"File holding the HS256 secret that enables POST /jwt/fetch_api_key." name:"jwt-key-file" type:"existingfile"`
	HeartbeatWait     time.Duration `help:"How long GET /events waits before a heartbeat." name:"heartbeat-wait" default:"50s"`
	SchedulerInterval time.Duration `help:"How often this process sends the scheduled messages and reminders, outgoing webhook calls, missed-message and digest emails that are due; 0 leaves them to other processes on the same store." name:"scheduler-interval" default:"1s"`
	RetentionInterval time.Duration `help:"How often this process (when --scheduler-interval is not 0) archives the messages past their message_retention_days and purges the archives older than --retention-grace-period." name:"retention-interval" default:"1h"`
	RetentionGrace    time.Duration `help:"How long messages removed by the retention policy stay restorable (Zulip's ARCHIVED_DATA_VACUUMING_DELAY_DAYS)." name:"retention-grace-period" default:"720h"`
	ParkLongPolls     bool          `help:"Let waiting GET /events requests give their connection up while they wait (less memory per idle client: about 11 KB instead of 20 KB), and the connection then serve its client's next GET /events itself (less CPU per wake-up); --no-park-long-polls keeps them in net/http." name:"park-long-polls" default:"true" negatable:""`
	ParkAfter         time.Duration `help:"How long a GET /events waits in net/http before it parks (0: at once)." name:"park-after" default:"0s"`
	RateLimits        bool          `help:"Apply Zulip's API rate limits (200 requests per minute per user, 100 per address unauthenticated); --no-rate-limits for load tests." default:"true" negatable:""`
	NavigationTourURL string        `help:"URL of the navigation tour video offered to new users (Zulip's NAVIGATION_TOUR_VIDEO_URL, register's navigation_tour_video_url); empty: none." name:"navigation-tour-video-url"`
	AllowPrivateHooks bool          `help:"Let outgoing webhook bots call loopback, private and link-local addresses (a bot server on this machine or network); by default such calls are refused." name:"allow-private-webhook-targets"`
	DrainTimeout      time.Duration `help:"On SIGTERM or SIGINT, how long the requests in flight may take to finish while new ones are answered 503 SERVER_SHUTTING_DOWN with Retry-After; writes still waiting after it are refused the same way." name:"drain-timeout" default:"10s"`
	AddressFile       string        `help:"Once serving, also write the address it bound (HOST:PORT, as printed on standard output) to this file (replaced atomically; removed on exit)." name:"address-file"`
	uploadFlags       `embed:""`
	loadFlags         `embed:""`
	opsFlags          `embed:""`
	mailFlags         `embed:""`
	gatewayFlags      `embed:""`
}

func main() {
	var c cli
	ctx := kong.Parse(&c, kong.Name("chatserver"), kong.Description("A Zulip-compatible chat server."),
		// Every flag can also come from the environment: --node-id from CHATSERVER_NODE_ID, ...
		kong.DefaultEnvars("CHATSERVER"))
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: c.LogLevel}))
	if err := ctx.Run(logger); err != nil {
		logger.Error("chatserver failed", "err", err)
		os.Exit(1)
	}
}

// Run serves until SIGINT or SIGTERM, then ends long-polls and shuts down gracefully.
func (c *serveCmd) Run(logger *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	followParent(ctx, stop, time.Second)
	ln, err := net.Listen("tcp", c.Listen)
	if err != nil {
		return err
	}
	return c.serve(ctx, ln, logger, os.Stdout)
}

// serve runs the server on ln until ctx ends. The listener answers at once: probes report
// "starting" and API requests SERVER_NOT_READY until the store is open, the event queues are
// restored and the organization is provisioned. Then it prints the address it bound on out
// (one line, HOST:PORT), and writes it to --address-file, so that a harness that started it
// with --listen 127.0.0.1:0 knows where to connect; the start-up message for a person follows
// on out.
func (c *serveCmd) serve(ctx context.Context, ln net.Listener, logger *slog.Logger, out io.Writer) (err error) {
	if err := c.validateLoad(); err != nil {
		ln.Close()
		return err
	}
	o := c.opsFlags.newOps()
	api := &swappable{}
	probes := http.NewServeMux()
	o.probes(probes, c.Metrics)
	srv := &http.Server{
		Handler:           probesThenAPI(probes, api),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      c.HeartbeatWait + 30*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    1 << 20, // above httpapi.DefaultMaxQueryBytes, which answers long URLs in JSON
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	// Waiting long-polls give their connections up to the listener's keeping (httpapi/park.go).
	parking := httpapi.NewLongPollListener(ln)
	go func() { served <- srv.Serve(parking) }()
	var svc *chat.Service
	var handler *httpapi.Handler
	var closers []func() error // the store and the bus, closed after the Service
	defer func() {
		if stopErr := shutdown(srv, served, handler, svc, o, logger, c.DrainTimeout); err == nil {
			err = stopErr
		}
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}()
	if err := o.startAdmin(c.AdminListen, logger); err != nil {
		return err
	}
	realmURL := c.RealmURL
	if realmURL == "" {
		realmURL = "http://" + ln.Addr().String()
	}
	store, err := openStore(ctx, c.Store)
	if err != nil {
		return err
	}
	closers = append(closers, store.Close)
	opts := chat.Options{Store: o.measure(store), Logger: logger, Dev: c.Dev, HeartbeatWait: c.HeartbeatWait, SchedulerInterval: c.SchedulerInterval,
		RetentionInterval: c.RetentionInterval, RetentionGracePeriod: c.RetentionGrace,
		MaxFileUploadSizeMiB: c.MaxUploadMiB, UploadQuotaMiB: c.UploadQuotaMiB, NavigationTourVideoURL: c.NavigationTourURL,
		AllowPrivateWebhookTargets: c.AllowPrivateHooks, DrainTimeout: c.DrainTimeout}
	if c.Dev {
		// The settings of Zulip's development server that clients' test suites notice
		// (zproject/dev_settings.py): bots at @zulipdev.com, any password.
		opts.WeakPasswords, opts.FakeEmailDomain = true, seeds.DevFakeEmailDomain
	}
	opts.EmailGatewayPattern = c.gatewayPattern(c.Dev, realmURL)
	if opts.Blobs, err = c.openBlobs(ctx, c.Store); err != nil {
		return err
	}
	apiOpts := httpapi.Options{Logger: logger, SecureCookies: strings.HasPrefix(realmURL, "https://")}
	if c.ParkLongPolls {
		apiOpts.LongPolls, apiOpts.ParkAfter = parking, c.ParkAfter
	}
	o.hook(&opts, &apiOpts)
	bus, err := c.openBus(ctx, c.Store, logger)
	if err != nil {
		return err
	}
	if bus != nil {
		closers = append(closers, bus.Close)
		opts.Bus, opts.NodeID, apiOpts.Queues = bus, c.NodeID, bus
	}
	if !c.RateLimits {
		opts.APIRateLimit, opts.AnonymousAPIRateLimit = &ratelimit.Rule{}, &ratelimit.Rule{}
	}
	if opts.Mailer, err = c.mailer(c.Dev, realmURL, logger); err != nil {
		return err
	}
	if c.JWTKeyFile != "" {
		key, err := os.ReadFile(c.JWTKeyFile)
		if err != nil {
			return err
		}
		opts.JWTKey = []byte(strings.TrimSpace(string(key)))
	}
	if svc, err = chat.New(opts); err != nil {
		return err
	}
	if err := c.provision(ctx, svc, realmURL); err != nil {
		return err
	}
	if err := c.loadFlags.build(ctx, svc, store, logger); err != nil {
		return err
	}
	if c.SchedulerInterval > 0 {
		svc.StartScheduler() // also sends what fell due while no process ran; Close stops it
	}
	stopGateway, err := c.startGateway(svc, opts.EmailGatewayPattern, logger)
	if err != nil {
		return err
	}
	defer stopGateway()
	// The web client at the organization's URL, in front of the API (webclient passes it
	// every request that is not the client's page or assets).
	handler = httpapi.New(svc, apiOpts)
	api.set(c.loadFlags.handler(webclient.New(handler, webclient.Options{})))
	sweepDone := make(chan struct{})
	sweepCtx, stopSweep := context.WithCancel(ctx)
	go func() { defer close(sweepDone); sweepUploads(sweepCtx, svc, c.UploadSweepInterval, logger) }()
	defer func() { stopSweep(); <-sweepDone }()
	o.started(svc, store)
	logger.Info("serving", "addr", ln.Addr().String(), "realm_url", realmURL, "store", c.Store, "dev", c.Dev)
	if c.AddressFile != "" {
		defer os.Remove(c.AddressFile)
	}
	if err := c.reportAddress(ln.Addr().String(), out); err != nil {
		return err
	}
	c.greet(out, realmURL, ln.Addr().String())

	select {
	case err := <-served:
		served <- err // for shutdown
		return err
	case <-ctx.Done():
		return nil
	}
}

// drainLinger is how long the API goes on answering 503 once the requests in flight have
// finished, before the server shuts its connections (see shutdown).
const drainLinger = 250 * time.Millisecond

// shutdown stops serving gracefully. The API first drains (httpapi.Handler.Drain): requests
// that arrive are answered 503 SERVER_SHUTTING_DOWN with Retry-After, and those in flight,
// writes included, finish, for up to drain; the readiness probe fails meanwhile. Then the
// Service closes: it ends waiting long-polls as it always has, refuses the writes still
// waiting for their transaction with the same 503 (after waiting up to drain for them), and
// saves the event queues. Last the HTTP server shuts down, its handlers having all answered.
func shutdown(srv *http.Server, served chan error, h *httpapi.Handler, svc *chat.Service, o *opsServer, logger *slog.Logger, drain time.Duration) error {
	logger.Info("shutting down", "drain_timeout", drain)
	o.health.Stopping()
	if h != nil {
		ctx, cancel := context.WithTimeout(context.Background(), drain)
		if n := h.Drain(ctx); n > 0 {
			logger.Warn("drain timed out", "requests_in_flight", n)
		}
		cancel()
		// A client whose request finished in the drain sends its next one on the same
		// connection at once: let it get its 503 (which closes the connection) rather than
		// find the connection closed under it by the server's shutdown.
		time.Sleep(min(drainLinger, drain))
	}
	if svc != nil {
		svc.Close()
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	o.stopAdmin(shutdownCtx)
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// openStore opens the storage named by --store: "memory", or a DSN of sqlstore.Open.
func openStore(ctx context.Context, spec string) (storage.Storage, error) {
	if spec == "memory" {
		return memory.New(), nil
	}
	store, err := sqlstore.Open(ctx, spec)
	if errors.Is(err, sqlstore.ErrBadDSN) {
		return nil, fmt.Errorf("unsupported --store %q (want sqlite:PATH, postgres://... or memory): %w", spec, err)
	}
	if err != nil {
		return nil, fmt.Errorf("--store: %w", err)
	}
	return store, nil
}

// provision fills an empty store from --dev or --seed; a store that already holds an
// organization is left as it is.
func (c *orgFlags) provision(ctx context.Context, svc *chat.Service, realmURL string) error {
	seed, err := c.seed()
	if err != nil {
		return err
	}
	if _, err := seed.Apply(ctx, svc, realmURL); err != nil && !errors.Is(err, chat.ErrOrganizationExists) {
		return err
	}
	return nil
}

// seed is the organization --dev or --seed describe (an empty one without either).
func (c *orgFlags) seed() (*seeds.Seed, error) {
	switch {
	case c.Dev && c.Seed != "":
		return nil, errors.New("--dev and --seed exclude each other")
	case c.Dev:
		return seeds.Dev(c.DevPassword), nil
	case c.Seed != "":
		return seeds.Load(c.Seed)
	}
	return &seeds.Seed{Organization: seeds.Organization{Name: "Chat"}}, nil
}

// reportAddress writes addr to --address-file (into a temporary file beside it, renamed into
// place, so that a reader never sees a partial address), then prints it on out.
func (c *serveCmd) reportAddress(addr string, out io.Writer) error {
	if c.AddressFile != "" {
		if err := writeFileAtomically(c.AddressFile, addr+"\n"); err != nil {
			return fmt.Errorf("--address-file: %w", err)
		}
	}
	if _, err := fmt.Fprintln(out, addr); err != nil && c.AddressFile == "" {
		return fmt.Errorf("report address: %w", err)
	}
	return nil
}

// writeFileAtomically replaces path with content through a temporary file in its directory.
func writeFileAtomically(path, content string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := tmp.WriteString(content)
	if err := errors.Join(werr, tmp.Close()); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// probesThenAPI serves a request with probes when one of its patterns matches, and with api
// otherwise, the path untouched: a ServeMux in front of the API would answer a path it does
// not consider clean ("//api/v1/register", which zulip-js requests when the site ends in "/")
// with a redirect, which clients do not follow for a POST.
func probesThenAPI(probes *http.ServeMux, api http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pattern := probes.Handler(r); pattern != "" {
			probes.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
}
