package latency

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

type metrics map[string]float64

func (m metrics) ReportMetric(v float64, unit string) { m[unit] = v }

func TestRounds(t *testing.T) {
	t.Parallel()
	var r Rounds
	for _, round := range [][]time.Duration{
		{3 * time.Millisecond, 1 * time.Millisecond, 2 * time.Millisecond},
		{10 * time.Millisecond, 20 * time.Millisecond, 30 * time.Millisecond},
		{4 * time.Millisecond, 5 * time.Millisecond, 6 * time.Millisecond},
		nil, // an empty round counts for nothing
	} {
		r.Add(round)
	}
	got := metrics{}
	r.Report(got)
	// Per round p50/p99/max: 2/3/3, 20/30/30, 5/6/6; the medians are 5, 6, 6.
	want := metrics{"p50-ms": 5, "p99-ms": 6, "max-ms": 6}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Report (-want +got):\n%s", diff)
	}
	empty := metrics{}
	(&Rounds{}).Report(empty)
	if diff := cmp.Diff(metrics{"p50-ms": 0, "p99-ms": 0, "max-ms": 0}, empty); diff != "" {
		t.Errorf("no rounds (-want +got):\n%s", diff)
	}
}
