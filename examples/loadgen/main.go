package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/alecthomas/kong"
)

// cli is the command line.
type cli struct {
	Server       string        `help:"Base URL of the server." default:"http://127.0.0.1:9991"`
	Users        int           `help:"Users with a registered queue and a long-poll loop." default:"100"`
	Senders      int           `help:"Concurrent senders of messages." default:"2"`
	SendRate     float64       `help:"Messages per second, all senders together (0: as fast as they can)." name:"send-rate" default:"5"`
	Channel      string        `help:"Channel the senders post to; every long-polling user must be subscribed to it." default:"channel 0"`
	Readers      int           `help:"Concurrent readers running the read mix, and clients of the read phase." default:"4"`
	Duration     time.Duration `help:"Length of the mixed phase (long-polls, sends, reads)." default:"30s"`
	ReadDuration time.Duration `help:"Length of each half of the read phase (server, then baseline); 0 skips it." name:"read-duration" default:"10s"`
	UserDomain   string        `help:"Use the users whose email ends with this (the server's --load-users)." name:"user-domain" default:"@load.example.com"`
	FetchTypes   string        `help:"fetch_event_types of the long-polling users' register (JSON list; [] fetches no state, like a reconnecting client)." name:"fetch-event-types" default:"[]"`
	RawPolls     bool          `help:"Long-poll over plain keep-alive connections of loadgen's own, without http.Client (cheaper on loadgen's side, which shares the machine); --no-raw-polls uses http.Client." name:"raw-polls" default:"true" negatable:""`
	JSON         bool          `help:"Print the report as JSON instead of text."`
	CPUProfile   string        `help:"Write loadgen's own CPU profile to this file (go tool pprof)." name:"cpu-profile" type:"path"`
	Timeout      time.Duration `help:"Timeout of one non-long-poll request." default:"30s"`
}

func main() {
	var c cli
	kong.Parse(&c, kong.Name("loadgen"), kong.Description("Load generator for the chat server."))
	if c.CPUProfile != "" {
		f, err := os.Create(c.CPUProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	rep, err := run(context.Background(), c)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
	if c.JSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep)
		return
	}
	rep.writeText(os.Stdout)
}

// client is an authenticated API client.
type client struct {
	base  string
	email string
	key   string
	hc    *http.Client
}

// do sends one request; form values go in the query for GET and DELETE, in the body otherwise.
// It decodes a JSON body into out (when non-nil) and fails on a non-200 status.
func (c *client) do(ctx context.Context, method, path string, form url.Values, out any) error {
	target := c.base + "/api/v1/" + path
	var body io.Reader
	if method == http.MethodGet || method == http.MethodDelete {
		if len(form) > 0 {
			target += "?" + form.Encode()
		}
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if c.key != "" {
		req.SetBasicAuth(c.email, c.key)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return &statusError{status: resp.StatusCode, body: string(b)}
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

type statusError struct {
	status int
	body   string
}

func (e *statusError) Error() string {
	b := e.body
	if len(b) > 200 {
		b = b[:200]
	}
	return fmt.Sprintf("HTTP %d: %s", e.status, b)
}

// counters are shared by every worker.
type counters struct {
	requests atomic.Int64
	mu       sync.Mutex
	errors   map[string]int
}

func (c *counters) record(err error) {
	c.requests.Add(1)
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return
	}
	kind := err.Error()
	var se *statusError
	if errors.As(err, &se) {
		kind = fmt.Sprintf("HTTP %d", se.status)
	} else if ne := net.Error(nil); errors.As(err, &ne) {
		kind = "network: " + ne.Error()
		if len(kind) > 80 {
			kind = kind[:80]
		}
	}
	c.mu.Lock()
	c.errors[kind]++
	c.mu.Unlock()
}

func newHTTPClient(conns int) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = conns
	t.MaxIdleConnsPerHost = conns
	return &http.Client{Transport: t}
}

// login fetches the API keys of n users of the domain through dev_fetch_api_key.
func login(ctx context.Context, c cli, hc *http.Client) ([]*client, error) {
	anon := &client{base: c.Server, hc: hc}
	var list struct {
		DirectAdmins []struct{ Email string } `json:"direct_admins"`
		DirectUsers  []struct{ Email string } `json:"direct_users"`
	}
	if err := anon.do(ctx, http.MethodGet, "dev_list_users", nil, &list); err != nil {
		return nil, fmt.Errorf("dev_list_users (is the server running with --dev?): %w", err)
	}
	var emails []string
	for _, u := range list.DirectUsers {
		if strings.HasSuffix(u.Email, c.UserDomain) {
			emails = append(emails, u.Email)
		}
	}
	if len(emails) < c.Users {
		return nil, fmt.Errorf("the server has %d users ending in %q, want %d (start it with --load-users %d)", len(emails), c.UserDomain, c.Users, c.Users)
	}
	emails = emails[:c.Users]
	out := make([]*client, len(emails))
	work := make(chan int)
	errc := make(chan error, 1)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for i := range work {
				var res struct {
					APIKey string `json:"api_key"`
				}
				if err := anon.do(ctx, http.MethodPost, "dev_fetch_api_key", url.Values{"username": {emails[i]}}, &res); err != nil {
					select {
					case errc <- fmt.Errorf("dev_fetch_api_key %s: %w", emails[i], err):
					default:
					}
					continue
				}
				out[i] = &client{base: c.Server, email: emails[i], key: res.APIKey, hc: hc}
			}
		})
	}
	for i := range emails {
		work <- i
	}
	close(work)
	wg.Wait()
	select {
	case err := <-errc:
		return nil, err
	default:
	}
	return out, nil
}

// serverMemory reads GET /debug/vars (nil when the server does not serve it).
func serverMemory(ctx context.Context, c cli, hc *http.Client) *MemoryReport {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Server+"/debug/vars", nil)
	if err != nil {
		return nil
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil
	}
	var m MemoryReport
	if json.NewDecoder(resp.Body).Decode(&m) != nil {
		return nil
	}
	return &m
}

// percentile returns the p-th percentile (0-100) of sorted values.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1) * p / 100)
	return sorted[i]
}

func msf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func summarize(samples []time.Duration) LatencyReport {
	slices.Sort(samples)
	r := LatencyReport{Samples: len(samples)}
	if len(samples) == 0 {
		return r
	}
	r.P50, r.P95, r.P99 = msf(percentile(samples, 50)), msf(percentile(samples, 95)), msf(percentile(samples, 99))
	r.Max = msf(samples[len(samples)-1])
	return r
}
