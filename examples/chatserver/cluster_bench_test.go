package main

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"
)

// BenchmarkFanoutLatency measures the time from a write's request to the arrival of its event
// at a client's waiting long-poll, on PostgreSQL: one process (in-process fan-out), and three
// processes (the write through the first, the queue on the second, the long-poll through the
// third, so the event crosses the bus and the poll is forwarded).
func BenchmarkFanoutLatency(b *testing.B) {
	dsn := clusterSchema(b)
	bin := buildServer(b)
	b.Run("one-process", func(b *testing.B) {
		n := startNode(b, bin, dsn, "")
		fanout(b, n, n, n)
	})
	b.Run("three-processes", func(b *testing.B) {
		n1 := startNode(b, bin, dsn, "n1")
		n2, n3 := startNode(b, bin, dsn, "n2"), startNode(b, bin, dsn, "n3")
		fanout(b, n1, n2, n3)
	})
}

// fanout renames a user through write and times the event's arrival at a queue registered on
// holder and polled through poll.
func fanout(b *testing.B, write, holder, poll *node) {
	c := &client{email: "hamlet@zulip.com"}
	c.register(b, holder)
	id := int64(mustCall(b, write, http.MethodGet, "users/me", "othello@zulip.com", nil)["user_id"].(float64))
	var lat []time.Duration
	for i := 0; b.Loop(); i++ {
		want := len(c.got) + 1
		arrived := make(chan time.Time, 1)
		go func() {
			for len(c.got) < want {
				if code := c.poll(b, poll); code != "" {
					b.Errorf("poll: %s", code)
					break
				}
			}
			arrived <- time.Now()
		}()
		time.Sleep(2 * time.Millisecond) // lets the long-poll reach its queue
		start := time.Now()
		mustCall(b, write, http.MethodPatch, fmt.Sprintf("users/%d", id), "iago@zulip.com",
			url.Values{"full_name": {fmt.Sprintf("Othello %d", i)}})
		lat = append(lat, (<-arrived).Sub(start))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds()), "p95-µs")
}
