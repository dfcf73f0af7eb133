package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// serveInProcess runs serve with c on a free port until the test ends and waits until it is
// ready; it returns the base URL.
func serveInProcess(t *testing.T, c *serveCmd) string {
	t.Helper()
	base, _ := serveUntilStopped(t, c)
	return base
}

// serveUntilStopped is serveInProcess that also returns a function stopping the server (and
// reporting an error of serve), for tests that serve again on the same store.
func serveUntilStopped(t *testing.T, c *serveCmd) (base string, stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- c.serve(ctx, ln, discardLogger(), io.Discard) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("serve: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	base = "http://" + ln.Addr().String()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		select {
		case err := <-done:
			done <- err
			t.Fatalf("serve ended before it was ready: %v", err)
		default:
		}
		if status, _ := get(t, base+"/readyz"); status == http.StatusOK {
			return base, stop
		}
		if time.Now().After(deadline) {
			t.Fatal("server not ready after 30s")
		}
	}
}

// get fetches url and returns the status and body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(body)
}

// apiCall makes an API request as email:key and decodes its successful JSON answer.
func apiCall(t *testing.T, method, url, email, key string, form url.Values) map[string]any {
	t.Helper()
	out, err := apiDo(method, url, email, key, form)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// apiDo is apiCall for any goroutine: it reports failures as an error.
func apiDo(method, url, email, key string, form url.Values) (map[string]any, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if email != "" {
		req.SetBasicAuth(email, key)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		return nil, err
	}
	if out["result"] != "success" {
		return nil, fmt.Errorf("%s %s: %v", method, url, out)
	}
	return out, nil
}

// metricValue finds the sample of a metric line "name{labels} value" in a scrape (labels as
// Prometheus writes them, in sorted order); ok is false when it is absent.
func metricValue(scrape, series string) (v float64, ok bool) {
	sc := bufio.NewScanner(strings.NewReader(scrape))
	for sc.Scan() {
		if rest, found := strings.CutPrefix(sc.Text(), series+" "); found {
			v, err := strconv.ParseFloat(rest, 64)
			return v, err == nil
		}
	}
	return 0, false
}

func TestMetricsCountASendAndALongPoll(t *testing.T) {
	t.Parallel()
	base := serveInProcess(t, &serveCmd{
		orgFlags: orgFlags{Store: "memory", Dev: true, DevPassword: "devpassword"}, HeartbeatWait: 30 * time.Second,
		opsFlags: opsFlags{Metrics: true},
	})
	api := base + "/api/v1/"
	key := apiCall(t, "POST", api+"dev_fetch_api_key", "", "", url.Values{"username": {"hamlet@zulip.com"}})["api_key"].(string)
	q := apiCall(t, "POST", api+"register", "hamlet@zulip.com", key, url.Values{"event_types": {`["message"]`}})
	queueID, last := q["queue_id"].(string), strconv.FormatFloat(q["last_event_id"].(float64), 'f', -1, 64)

	type answer struct {
		body map[string]any
		err  error
	}
	polled := make(chan answer, 1)
	go func() {
		body, err := apiDo("GET", api+"events?"+url.Values{"queue_id": {queueID}, "last_event_id": {last}}.Encode(), "hamlet@zulip.com", key, nil)
		polled <- answer{body, err}
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		_, scrape := get(t, base+"/metrics")
		if v, _ := metricValue(scrape, "chat_long_polls"); v == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("chat_long_polls never reached 1; scrape:\n%s", scrape)
		}
	}
	apiCall(t, "POST", api+"messages", "hamlet@zulip.com", key, url.Values{
		"type": {"stream"}, "to": {"Verona"}, "topic": {"metrics"}, "content": {"counted"}})
	a := <-polled
	if a.err != nil {
		t.Fatal(a.err)
	}
	if evs, _ := a.body["events"].([]any); len(evs) != 1 {
		t.Fatalf("long-poll returned %v, want the message event", a.body)
	}

	_, scrape := get(t, base+"/metrics")
	for series, want := range map[string]float64{
		`chat_http_requests_total{method="POST",route="/api/v1/messages",status="200"}`: 1,
		`chat_http_requests_total{method="GET",route="/api/v1/events",status="200"}`:    1,
		`chat_http_request_duration_seconds_count{method="GET",route="/api/v1/events"}`: 1,
		`chat_event_queues`: 1,
		`chat_long_polls`:   0,
	} {
		if got, ok := metricValue(scrape, series); !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", series, got, ok, want)
		}
	}
	for _, series := range []string{
		"chat_events_published_total", "chat_events_delivered_total", "chat_event_fanout_seconds_count",
		`chat_store_transactions_total{kind="update",outcome="ok"}`, `chat_store_transactions_total{kind="view",outcome="ok"}`,
	} {
		if got, _ := metricValue(scrape, series); got < 1 {
			t.Errorf("%s = %v, want at least 1", series, got)
		}
	}
}

func TestMetricsOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	base := serveInProcess(t, &serveCmd{orgFlags: orgFlags{Store: "memory"}, HeartbeatWait: time.Second})
	if status, _ := get(t, base+"/metrics"); status != http.StatusNotFound {
		t.Errorf("GET /metrics without --metrics: status %d, want 404", status)
	}
	for _, path := range []string{"/health", "/livez", "/readyz"} {
		if status, body := get(t, base+path); status != http.StatusOK {
			t.Errorf("GET %s: %d %s, want 200", path, status, body)
		}
	}
}

func TestMetricsCountUploadsAndScheduledMessages(t *testing.T) {
	t.Parallel()
	c := &serveCmd{
		orgFlags: orgFlags{Store: "memory", Dev: true, DevPassword: "devpassword"}, HeartbeatWait: time.Second,
		opsFlags: opsFlags{Metrics: true}, SchedulerInterval: 50 * time.Millisecond,
	}
	c.MaxUploadMiB = 1
	base := serveInProcess(t, c)
	api := base + "/api/v1/"
	key := apiCall(t, "POST", api+"dev_fetch_api_key", "", "", url.Values{"username": {"hamlet@zulip.com"}})["api_key"].(string)

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", "notes.txt")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write([]byte("twelve bytes"))
	mw.Close()
	req, err := http.NewRequest("POST", api+"user_uploads", &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.SetBasicAuth("hamlet@zulip.com", key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("upload: %d", res.StatusCode)
	}
	verona := apiCall(t, "GET", api+"get_stream_id?stream=Verona", "hamlet@zulip.com", key, nil)["stream_id"].(float64)
	apiCall(t, "POST", api+"scheduled_messages", "hamlet@zulip.com", key, url.Values{
		"type": {"stream"}, "to": {strconv.FormatFloat(verona, 'f', -1, 64)}, "topic": {"later"}, "content": {"scheduled"},
		"scheduled_delivery_timestamp": {strconv.FormatInt(time.Now().Add(1500*time.Millisecond).Unix()+1, 10)}})

	var scrape string
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		_, scrape = get(t, base+"/metrics")
		if v, _ := metricValue(scrape, `chat_scheduled_messages_total{outcome="sent"}`); v == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the scheduled message was not counted; scrape:\n%s", scrape)
		}
	}
	for series, want := range map[string]float64{
		"chat_uploads_total":                              1,
		"chat_upload_bytes_total":                         12,
		`chat_scheduled_messages_total{outcome="failed"}`: 0,
	} {
		if got, ok := metricValue(scrape, series); !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", series, got, ok, want)
		}
	}
}
