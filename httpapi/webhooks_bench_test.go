package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/httpapi"
	"github.com/teamchat/chat/ratelimit"
	"github.com/teamchat/chat/storage/sqlstore"
	"github.com/teamchat/chat/users"
)

// BenchmarkIncomingWebhookRate offers POST /api/v1/external/github (a force push with one
// commit, to a channel of 10 subscribers) at a fixed rate on SQLite (synchronous=FULL) and,
// in the same run, plain POST /api/v1/messages of the message it produces, and reports the
// rate achieved and the latency percentiles of each. The load is open: request i is due at
// start + i/rate whatever the answers before it, and its latency counts from then, so a
// server that falls behind shows it in p99. Run it once:
//
//	go test -run '^$' -bench IncomingWebhookRate -benchtime 1x ./httpapi
//
// WEBHOOK_BENCH_RATE (default 1000 requests/s) and WEBHOOK_BENCH_SECONDS (default 10) change
// the load.
func BenchmarkIncomingWebhookRate(b *testing.B) {
	rate, seconds := 1000, 10
	if v := os.Getenv("WEBHOOK_BENCH_RATE"); v != "" {
		fmt.Sscan(v, &rate)
	}
	if v := os.Getenv("WEBHOOK_BENCH_SECONDS"); v != "" {
		fmt.Sscan(v, &seconds)
	}
	srv, hookKey, humanEmail, humanKey := webhookBenchServer(b)
	push, err := os.ReadFile("../integrations/testdata/github/push__force_1_commit.json")
	if err != nil {
		b.Fatal(err)
	}
	const content = "sbansal1999 [force pushed](https://github.com/sbansal1999/zulip/compare/b6de8891fc10...971d76ca3094) 1 commit to branch temp.\n\n" +
		"* log: Add important.txt which is useful for logging errors. ([971d76ca309](https://github.com/sbansal1999/zulip/commit/971d76ca309446a9c20381f6271cea8a59b4e40a))"
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256}}
	webhookURL := srv.URL + "/api/v1/external/github?" + url.Values{"api_key": {hookKey}, "stream": {"alerts"}}.Encode()
	form := url.Values{"type": {"stream"}, "to": {"alerts"}, "topic": {"zulip / temp"}, "content": {content}}.Encode()
	kinds := []struct {
		name string
		req  func() *http.Request
	}{
		{"messages", func() *http.Request {
			r, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/messages", strings.NewReader(form))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			r.SetBasicAuth(humanEmail, humanKey)
			return r
		}},
		{"webhook", func() *http.Request {
			r, _ := http.NewRequest(http.MethodPost, webhookURL, bytes.NewReader(push))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("X-GitHub-Event", "push")
			return r
		}},
	}
	b.ResetTimer()
	for range b.N {
		for _, k := range kinds {
			res := offerLoad(client, k.req, rate, time.Duration(seconds)*time.Second)
			b.Logf("%-8s offered %d/s for %ds: %d done (%.0f/s), %d failed; latency p50 %.2f ms, p99 %.2f ms, max %.2f ms",
				k.name, rate, seconds, res.done, res.achieved, res.failed, res.p(0.50), res.p(0.99), res.p(1))
			b.ReportMetric(res.achieved, k.name+"-req/s")
			b.ReportMetric(res.p(0.99), k.name+"-p99-ms")
			b.ReportMetric(res.p(0.50), k.name+"-p50-ms")
		}
	}
}

type loadResult struct {
	done, failed int
	achieved     float64
	latencies    []float64 // ms, sorted
}

func (r loadResult) p(q float64) float64 {
	if len(r.latencies) == 0 {
		return 0
	}
	i := int(q * float64(len(r.latencies)-1))
	return r.latencies[i]
}

// offerLoad sends requests at rate per second for d, from a pool of workers, and measures
// each from the moment it was due.
func offerLoad(client *http.Client, newReq func() *http.Request, rate int, d time.Duration) loadResult {
	total := int(d.Seconds() * float64(rate))
	due := make(chan time.Time, total)
	var mu sync.Mutex
	var res loadResult
	var wg sync.WaitGroup
	for range 128 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for at := range due {
				time.Sleep(time.Until(at))
				resp, err := client.Do(newReq())
				ok := err == nil && resp.StatusCode == http.StatusOK
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				ms := float64(time.Since(at).Microseconds()) / 1000
				mu.Lock()
				if ok {
					res.done++
					res.latencies = append(res.latencies, ms)
				} else {
					res.failed++
				}
				mu.Unlock()
			}
		}()
	}
	start := time.Now().Add(50 * time.Millisecond)
	for i := range total {
		due <- start.Add(time.Duration(i) * time.Second / time.Duration(rate))
	}
	close(due)
	wg.Wait()
	res.achieved = float64(res.done) / time.Since(start).Seconds()
	slices.Sort(res.latencies)
	return res
}

// webhookBenchServer serves a Service on SQLite in a temporary directory: an owner, nine
// members subscribed with them to "alerts", and an incoming webhook bot of the owner. It
// returns the server, the bot's key and the owner's email and key.
func webhookBenchServer(b *testing.B) (*httptest.Server, string, string, string) {
	b.Helper()
	ctx := context.Background()
	store, err := sqlstore.Open(ctx, "sqlite:"+filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc, err := chat.New(chat.Options{Store: store, Logger: quiet, APIRateLimit: &ratelimit.Rule{}, AnonymousAPIRateLimit: &ratelimit.Rule{},
		PasswordHashing: chat.PasswordHashing{MemoryKiB: 64, Passes: 1, Threads: 1}})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Bench", URL: "http://chat.test"}); err != nil {
		b.Fatal(err)
	}
	var ids []users.ID
	var ownerKey string
	for i := range 10 {
		p := chat.ProvisionUserParams{Email: fmt.Sprintf("user%d@chat.test", i), FullName: fmt.Sprintf("User %d", i), Password: "bench password"}
		if i == 0 {
			p.Role = users.RoleOwner
		}
		res, err := svc.ProvisionUser(ctx, p)
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, res.UserID)
		if i == 0 {
			ownerKey = res.APIKey
		}
	}
	srv := httptest.NewServer(httpapi.New(svc, httpapi.Options{Logger: quiet}))
	b.Cleanup(func() { srv.Close(); svc.Close(); store.Close() })
	owner := chat.Actor{UserID: ids[0]}
	principals := make([]string, len(ids))
	for i, id := range ids {
		principals[i] = fmt.Sprint(id)
	}
	form := url.Values{"subscriptions": {`[{"name":"alerts"}]`}, "principals": {"[" + strings.Join(principals, ",") + "]"}}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/users/me/subscriptions", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth("user0@chat.test", ownerKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		b.Fatalf("subscribe: %v %v", resp, err)
	}
	resp.Body.Close()
	bot, err := svc.CreateBot(ctx, owner, chat.CreateBotParams{FullName: "Hook", ShortName: "hook", BotType: users.BotIncomingWebhook})
	if err != nil {
		b.Fatal(err)
	}
	return srv, bot.APIKey, "user0@chat.test", ownerKey
}
