package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Report is everything loadgen measured.
type Report struct {
	Server  string         `json:"server"`
	Users   int            `json:"users"`
	Senders int            `json:"senders"`
	Readers int            `json:"readers"`
	Setup   Setup          `json:"setup"`
	Mixed   Mixed          `json:"mixed"`
	Reads   *Reads         `json:"reads,omitempty"`
	Errors  map[string]int `json:"errors"`
}

// Setup times logging in and registering the queues.
type Setup struct {
	LoginSeconds    float64       `json:"login_seconds"`
	RegisterSeconds float64       `json:"register_seconds"`
	Register        LatencyReport `json:"register_ms"`
}

// Mixed is the phase with long-polls, senders and readers.
type Mixed struct {
	Seconds         float64       `json:"seconds"`
	Requests        int64         `json:"requests"`
	RequestsPerSec  float64       `json:"requests_per_sec"`
	MessagesSent    int64         `json:"messages_sent"`
	Send            LatencyReport `json:"send_ms"`
	Delivery        LatencyReport `json:"delivery_ms"`
	Read            LatencyReport `json:"read_ms"`
	MemoryIdle      *MemoryReport `json:"server_memory_before"`
	MemoryUnderLoad *MemoryReport `json:"server_memory_under_load"`
}

// Reads compares GET /users/me/subscriptions with the bare net/http baseline.
type Reads struct {
	ResponseBytes   int           `json:"response_bytes"`
	ServerPerSec    float64       `json:"server_requests_per_sec"`
	BaselinePerSec  float64       `json:"baseline_requests_per_sec"`
	Ratio           float64       `json:"ratio"`
	ServerLatency   LatencyReport `json:"server_ms"`
	BaselineLatency LatencyReport `json:"baseline_ms"`
}

// LatencyReport holds percentiles in milliseconds.
type LatencyReport struct {
	Samples int     `json:"samples"`
	P50     float64 `json:"p50"`
	P95     float64 `json:"p95"`
	P99     float64 `json:"p99"`
	Max     float64 `json:"max"`
}

// MemoryReport is the server's GET /debug/vars.
type MemoryReport struct {
	RSSBytes   uint64 `json:"rss_bytes"`
	HeapAlloc  uint64 `json:"heap_alloc"`
	HeapInuse  uint64 `json:"heap_inuse"`
	Sys        uint64 `json:"sys"`
	Goroutines int    `json:"goroutines"`
}

func run(ctx context.Context, c cli) (*Report, error) {
	hc := newHTTPClient(c.Users + c.Senders + c.Readers + 64)
	ctr := &counters{errors: map[string]int{}}
	rep := &Report{Server: c.Server, Users: c.Users, Senders: c.Senders, Readers: c.Readers}

	t0 := time.Now()
	clients, err := login(ctx, c, hc)
	if err != nil {
		return nil, err
	}
	rep.Setup.LoginSeconds = time.Since(t0).Seconds()
	rep.Mixed.MemoryIdle = serverMemory(ctx, c, hc)

	mixed, err := runMixed(ctx, c, clients, ctr, rep)
	if err != nil {
		return nil, err
	}
	rep.Mixed = mixed
	if c.ReadDuration > 0 {
		r, err := runReads(ctx, c, clients, hc)
		if err != nil {
			return nil, err
		}
		rep.Reads = r
	}
	rep.Errors = ctr.errors
	return rep, nil
}

// poller is one user's queue and the latencies it observed.
type poller struct {
	cl      *client
	raw     *rawPoll // nil: long-poll through the http.Client
	queue   string
	last    int64
	samples []time.Duration
}

// stamp marks message content with its send time; parseStamp reads it back.
const stampPrefix = "loadgen-sent-at "

func parseStamp(content string) (time.Time, bool) {
	i := strings.Index(content, stampPrefix)
	if i < 0 {
		return time.Time{}, false
	}
	rest := content[i+len(stampPrefix):]
	end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if end >= 0 {
		rest = rest[:end]
	}
	ns, err := strconv.ParseInt(rest, 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.Unix(0, ns), true
}

func runMixed(ctx context.Context, c cli, clients []*client, ctr *counters, rep *Report) (Mixed, error) {
	var m Mixed
	m.MemoryIdle = rep.Mixed.MemoryIdle
	// Register every queue (16 at a time), as clients do on start.
	pollers := make([]*poller, len(clients))
	regLat := make([]time.Duration, len(clients))
	t0 := time.Now()
	work := make(chan int)
	var wg sync.WaitGroup
	var regErr error
	var regMu sync.Mutex
	for range 16 {
		wg.Go(func() {
			for i := range work {
				var res struct {
					QueueID     string `json:"queue_id"`
					LastEventID int64  `json:"last_event_id"`
				}
				start := time.Now()
				err := clients[i].do(ctx, http.MethodPost, "register", url.Values{
					"event_types": {`["message"]`}, "fetch_event_types": {c.FetchTypes}, "apply_markdown": {"false"},
				}, &res)
				regLat[i] = time.Since(start)
				ctr.record(err)
				if err != nil {
					regMu.Lock()
					regErr = fmt.Errorf("register %s: %w", clients[i].email, err)
					regMu.Unlock()
					continue
				}
				pollers[i] = &poller{cl: clients[i], queue: res.QueueID, last: res.LastEventID}
				if c.RawPolls {
					pollers[i].raw = newRawPoll(clients[i])
				}
			}
		})
	}
	for i := range clients {
		work <- i
	}
	close(work)
	wg.Wait()
	if regErr != nil {
		return m, regErr
	}
	rep.Setup.RegisterSeconds = time.Since(t0).Seconds()
	rep.Setup.Register = summarize(regLat)

	runCtx, cancel := context.WithTimeout(ctx, c.Duration)
	defer cancel()
	startReq := ctr.requests.Load()
	start := time.Now()
	var all sync.WaitGroup
	for _, p := range pollers {
		all.Go(func() {
			p.loop(runCtx, ctr)
			if p.raw != nil {
				p.raw.close()
			}
		})
	}
	// Let the long-polls attach before the first message.
	time.Sleep(min(2*time.Second, c.Duration/10))

	var sendMu sync.Mutex
	var sendLat []time.Duration
	var sent int64
	var interval time.Duration
	if c.SendRate > 0 {
		interval = time.Duration(float64(time.Second) * float64(c.Senders) / c.SendRate)
	}
	for s := range c.Senders {
		cl := clients[s%len(clients)]
		all.Go(func() {
			tick := time.NewTicker(max(interval, time.Microsecond))
			defer tick.Stop()
			for n := 0; ; n++ {
				if interval > 0 {
					select {
					case <-runCtx.Done():
						return
					case <-tick.C:
					}
				} else if runCtx.Err() != nil {
					return
				}
				at := time.Now()
				err := cl.do(runCtx, http.MethodPost, "messages", url.Values{
					"type": {"stream"}, "to": {c.Channel}, "topic": {fmt.Sprintf("load %d", s)},
					"content": {fmt.Sprintf("message %d %s%d", n, stampPrefix, at.UnixNano())},
				}, nil)
				ctr.record(err)
				if err == nil {
					sendMu.Lock()
					sendLat = append(sendLat, time.Since(at))
					sent++
					sendMu.Unlock()
				}
			}
		})
	}
	var readMu sync.Mutex
	var readLat []time.Duration
	for r := range c.Readers {
		cl := clients[(r*7919+1)%len(clients)]
		rng := rand.New(rand.NewPCG(uint64(r), 42))
		all.Go(func() {
			for runCtx.Err() == nil {
				at := time.Now()
				err := readOnce(runCtx, cl, rng)
				if runCtx.Err() != nil {
					return
				}
				ctr.record(err)
				readMu.Lock()
				readLat = append(readLat, time.Since(at))
				readMu.Unlock()
			}
		})
	}
	// Sample the server's memory while every long-poll is held.
	time.Sleep(c.Duration * 8 / 10)
	m.MemoryUnderLoad = serverMemory(ctx, c, http.DefaultClient)
	all.Wait()
	m.Seconds = time.Since(start).Seconds()
	m.Requests = ctr.requests.Load() - startReq
	m.RequestsPerSec = float64(m.Requests) / m.Seconds
	m.MessagesSent = sent
	m.Send = summarize(sendLat)
	m.Read = summarize(readLat)
	var delivery []time.Duration
	for _, p := range pollers {
		delivery = append(delivery, p.samples...)
	}
	m.Delivery = summarize(delivery)
	// End the queues.
	for _, p := range pollers {
		_ = p.cl.do(ctx, http.MethodDelete, "events", url.Values{"queue_id": {p.queue}}, nil)
	}
	return m, nil
}

// loop long-polls until ctx ends, recording the latency of every stamped message.
func (p *poller) loop(ctx context.Context, ctr *counters) {
	var now time.Time
	record := func(at time.Time) { p.samples = append(p.samples, now.Sub(at)) }
	for ctx.Err() == nil {
		body, err := p.events(ctx)
		now = time.Now()
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			var last int64
			if last, err = scanEvents(body, record); err == nil {
				p.last = max(p.last, last)
			}
		}
		ctr.record(err)
		if err != nil {
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// readOnce issues one request of the read mix: subscriptions 60%, own user 20%, the user list
// 10%, a full register (then its queue deleted) 10%.
func readOnce(ctx context.Context, cl *client, rng *rand.Rand) error {
	switch x := rng.IntN(10); {
	case x < 6:
		return cl.do(ctx, http.MethodGet, "users/me/subscriptions", nil, nil)
	case x < 8:
		return cl.do(ctx, http.MethodGet, "users/me", nil, nil)
	case x < 9:
		return cl.do(ctx, http.MethodGet, "users", nil, nil)
	default:
		var res struct {
			QueueID string `json:"queue_id"`
		}
		if err := cl.do(ctx, http.MethodPost, "register", nil, &res); err != nil {
			return err
		}
		return cl.do(ctx, http.MethodDelete, "events", url.Values{"queue_id": {res.QueueID}}, nil)
	}
}

// runReads measures GET /users/me/subscriptions against the server, then the same bytes
// served by a bare net/http handler in this process, with the same number of clients.
func runReads(ctx context.Context, c cli, clients []*client, hc *http.Client) (*Reads, error) {
	cl := clients[0]
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Server+"/api/v1/users/me/subscriptions", nil)
	if err != nil {
		return nil, err
	}
	req.SetBasicAuth(cl.email, cl.key)
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	ctype := resp.Header.Get("Content-Type")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	bare := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.Write(body)
	})}
	go bare.Serve(ln)
	defer bare.Close()

	r := &Reads{ResponseBytes: len(body)}
	var lat []time.Duration
	r.ServerPerSec, lat = hammer(ctx, c, clients, hc, c.Server)
	r.ServerLatency = summarize(lat)
	r.BaselinePerSec, lat = hammer(ctx, c, clients, hc, "http://"+ln.Addr().String())
	r.BaselineLatency = summarize(lat)
	if r.BaselinePerSec > 0 {
		r.Ratio = r.ServerPerSec / r.BaselinePerSec
	}
	return r, nil
}

// hammer runs c.Readers clients fetching GET /users/me/subscriptions from base for
// c.ReadDuration and returns the successful requests per second and their latencies.
func hammer(ctx context.Context, c cli, clients []*client, hc *http.Client, base string) (float64, []time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, c.ReadDuration)
	defer cancel()
	var mu sync.Mutex
	var all []time.Duration
	var wg sync.WaitGroup
	start := time.Now()
	for r := range c.Readers {
		src := clients[r%len(clients)]
		cl := &client{base: base, email: src.email, key: src.key, hc: hc}
		wg.Go(func() {
			var mine []time.Duration
			for ctx.Err() == nil {
				at := time.Now()
				if err := cl.do(ctx, http.MethodGet, "users/me/subscriptions", nil, nil); err != nil {
					continue
				}
				mine = append(mine, time.Since(at))
			}
			mu.Lock()
			all = append(all, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	return float64(len(all)) / time.Since(start).Seconds(), all
}

// writeText prints the report for people.
func (r *Report) writeText(w io.Writer) {
	fmt.Fprintf(w, "server %s: %d long-polling users, %d senders, %d readers\n", r.Server, r.Users, r.Senders, r.Readers)
	fmt.Fprintf(w, "setup: login %.1fs, register %.1fs (register p50 %.1fms p99 %.1fms)\n",
		r.Setup.LoginSeconds, r.Setup.RegisterSeconds, r.Setup.Register.P50, r.Setup.Register.P99)
	m := r.Mixed
	fmt.Fprintf(w, "mixed phase: %.1fs, %d requests, %.0f requests/s, %d messages sent\n", m.Seconds, m.Requests, m.RequestsPerSec, m.MessagesSent)
	lat := func(name string, l LatencyReport) {
		fmt.Fprintf(w, "  %-9s n=%-8d p50 %8.1fms  p95 %8.1fms  p99 %8.1fms  max %8.1fms\n", name, l.Samples, l.P50, l.P95, l.P99, l.Max)
	}
	lat("send", m.Send)
	lat("delivery", m.Delivery)
	lat("reads", m.Read)
	mem := func(name string, v *MemoryReport) {
		if v == nil {
			fmt.Fprintf(w, "  server memory %s: unknown (start the server with --debug-vars)\n", name)
			return
		}
		fmt.Fprintf(w, "  server memory %s: RSS %.1f MiB, heap in use %.1f MiB, %d goroutines\n", name,
			float64(v.RSSBytes)/(1<<20), float64(v.HeapInuse)/(1<<20), v.Goroutines)
	}
	mem("before", m.MemoryIdle)
	mem("under load", m.MemoryUnderLoad)
	if rd := r.Reads; rd != nil {
		fmt.Fprintf(w, "reads: GET /users/me/subscriptions (%d bytes): server %.0f/s (p50 %.1fms), bare net/http baseline %.0f/s (p50 %.1fms): ratio %.2f\n",
			rd.ResponseBytes, rd.ServerPerSec, rd.ServerLatency.P50, rd.BaselinePerSec, rd.BaselineLatency.P50, rd.Ratio)
	}
	if len(r.Errors) == 0 {
		fmt.Fprintln(w, "errors: none")
	}
	for k, n := range r.Errors {
		fmt.Fprintf(w, "errors: %d × %s\n", n, k)
	}
}
