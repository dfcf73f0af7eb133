// Package latency summarizes the fan-out benchmarks' latencies: each round (one event
// delivered to many waiters) gives a p50, p99 and maximum, and a benchmark reports the
// median of each over its rounds, so one slow round does not decide the figure.
package latency

import (
	"slices"
	"time"
)

// Rounds collects the percentiles of each round.
type Rounds struct {
	p50, p99, max []float64
}

// Add records one round's latencies (one per waiter; the slice is not modified).
func (r *Rounds) Add(lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	s := slices.Clone(lat)
	slices.Sort(s)
	r.p50 = append(r.p50, ms(s[len(s)/2]))
	r.p99 = append(r.p99, ms(s[len(s)*99/100]))
	r.max = append(r.max, ms(s[len(s)-1]))
}

// Report reports the medians over the rounds as p50-ms, p99-ms and max-ms (b is a
// *testing.B).
func (r *Rounds) Report(b interface{ ReportMetric(float64, string) }) {
	b.ReportMetric(median(r.p50), "p50-ms")
	b.ReportMetric(median(r.p99), "p99-ms")
	b.ReportMetric(median(r.max), "max-ms")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
