package queue

import (
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/teamchat/chat/internal/latency"
)

// BenchmarkFanout publishes one event to 10,000 queues, each with a waiting long-poll, and
// reports the per-queue delivery latency (publish → the long-poll returned) as p50/p99 in
// milliseconds. Each iteration is one event reaching every queue.
func BenchmarkFanout(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run("queues="+strconv.Itoa(n), func(b *testing.B) { benchFanout(b, n) })
		b.Run("baseline=bare-channels/queues="+strconv.Itoa(n), func(b *testing.B) { benchFanoutBare(b, n) })
	}
}

func benchFanout(b *testing.B, n int) {
	m := New(Options{HeartbeatWait: time.Hour})
	b.Cleanup(m.Close)
	ids := make([]string, n)
	owners := make([]int64, n)
	for i := range n {
		info, err := m.Register(Spec{Owner: int64(i + 1)})
		if err != nil {
			b.Fatal(err)
		}
		ids[i], owners[i] = info.ID, int64(i+1)
	}
	ctx := b.Context()
	var (
		published time.Time // set before each Publish, read after the wake-up
		pubMu     sync.RWMutex
		lat       = make([]time.Duration, n)
	)
	start := make([]chan int64, n) // the last event id to acknowledge, per round
	var round sync.WaitGroup
	var all sync.WaitGroup
	for i := range n {
		start[i] = make(chan int64, 1)
		all.Add(1)
		go func() {
			defer all.Done()
			for last := range start[i] {
				evs, err := m.Get(ctx, GetParams{QueueID: ids[i], Owner: owners[i], LastEventID: last})
				pubMu.RLock()
				lat[i] = time.Since(published)
				pubMu.RUnlock()
				if err != nil || len(evs) != 1 {
					b.Errorf("queue %d: %d events, %v", i, len(evs), err)
				}
				round.Done()
			}
		}()
	}
	b.Cleanup(func() {
		for _, c := range start {
			close(c)
		}
		all.Wait()
	})
	var rounds latency.Rounds
	b.ReportAllocs()
	b.ResetTimer()
	for it := range b.N {
		b.StopTimer()
		round.Add(n)
		for i := range n {
			start[i] <- int64(it) - 1
		}
		waitForWaiters(m, n)
		b.StartTimer()
		pubMu.Lock()
		published = time.Now()
		pubMu.Unlock()
		m.Publish(owners, "message", "payload")
		round.Wait()
		b.StopTimer()
		rounds.Add(lat)
		b.StartTimer()
	}
	rounds.Report(b)
}

// benchFanoutBare is the baseline of BenchmarkFanout: n goroutines each blocked on a channel of
// its own, woken by closing the n channels in a loop, with the same latency accounting.
func benchFanoutBare(b *testing.B, n int) {
	var (
		published time.Time
		pubMu     sync.RWMutex
		lat       = make([]time.Duration, n)
		round     sync.WaitGroup
		ready     sync.WaitGroup
	)
	chans := make([]chan struct{}, n)
	var rounds latency.Rounds
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		round.Add(n)
		ready.Add(n)
		for i := range n {
			chans[i] = make(chan struct{})
			go func(c chan struct{}) {
				ready.Done()
				<-c
				pubMu.RLock()
				lat[i] = time.Since(published)
				pubMu.RUnlock()
				round.Done()
			}(chans[i])
		}
		ready.Wait()
		time.Sleep(time.Millisecond)
		b.StartTimer()
		pubMu.Lock()
		published = time.Now()
		pubMu.Unlock()
		for _, c := range chans {
			close(c)
		}
		round.Wait()
		b.StopTimer()
		rounds.Add(lat)
		b.StartTimer()
	}
	rounds.Report(b)
}

// waitForWaiters returns once n long-polls wait in m.
func waitForWaiters(m *Manager, n int) {
	for {
		m.mu.Lock()
		w := 0
		for _, q := range m.queues {
			w += q.waiters
		}
		m.mu.Unlock()
		if w >= n {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// BenchmarkIdleQueueHeap registers 10,000 queues and reports the heap each one holds (the
// queue and its map entries; no waiting long-poll).
func BenchmarkIdleQueueHeap(b *testing.B) {
	const n = 10000
	b.ReportAllocs()
	var perQueue float64
	for range b.N {
		m := New(Options{})
		before := heapInUse()
		for i := range n {
			if _, err := m.Register(Spec{Owner: int64(i + 1), EventTypes: []string{"message", "subscription"}}); err != nil {
				b.Fatal(err)
			}
		}
		perQueue = float64(heapInUse()-before) / n
		runtime.KeepAlive(m)
		m.Close()
	}
	b.ReportMetric(perQueue, "B/queue")
}

// heapInUse reports the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
