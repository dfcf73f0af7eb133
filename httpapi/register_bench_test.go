package httpapi_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/internal/benchorg"
	"github.com/teamchat/chat/internal/cputime"
	"github.com/teamchat/chat/storage/memory"
)

// BenchmarkRegisterHTTP is what a client pays for POST /register: a member subscribed to
// 1,000 channels of the 10,000-user organization (the bigOrg of the Service benchmarks), the
// full initial state encoded as JSON over loopback HTTP; each iteration deletes its queue.
// cpu-ms/op is the process's CPU (server and client) per registration.
func BenchmarkRegisterHTTP(b *testing.B) {
	ctx := b.Context()
	srv, svc, org := benchServer(b, benchorg.Spec{Users: 10000, Channels: 1000, SubsPerUser: 20},
		func(store *memory.Store, org *benchorg.Org) error {
			return benchorg.SubscribeUser(ctx, store, org, org.Members[0], 1000)
		})
	c := srv.Client()
	me := chat.Actor{UserID: org.Members[0]}
	b.ReportAllocs()
	start := cputime.Process()
	var size int
	for b.Loop() {
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/register", nil)
		if err != nil {
			b.Fatal(err)
		}
		req.SetBasicAuth(org.Emails[0], org.Keys[0])
		resp, err := c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			b.Fatalf("POST /register: %d %v %.200s", resp.StatusCode, err, body)
		}
		const key = `"queue_id":"`
		i := strings.Index(string(body), key)
		if i < 0 || !strings.Contains(string(body), `"realm_users":[`) {
			b.Fatalf("unexpected body %.200s", body)
		}
		id, _, _ := strings.Cut(string(body[i+len(key):]), `"`)
		if _, err := svc.DeleteQueue(ctx, me, chat.DeleteQueueParams{QueueID: id}); err != nil {
			b.Fatal(err)
		}
		size = len(body)
	}
	b.ReportMetric(float64(cputime.Process()-start)/float64(b.N)/float64(time.Millisecond), "cpu-ms/op")
	b.ReportMetric(float64(size), "body-B")
}
