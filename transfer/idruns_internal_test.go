package transfer

import (
	"math/rand/v2"
	"testing"
)

// TestIDRuns: ascending consecutive ids make one run; gaps and ids out of order make more,
// and every id maps back to its new id; an id added twice is refused.
func TestIDRuns(t *testing.T) {
	t.Parallel()
	var r idRuns
	for old := int64(10); old < 1010; old++ {
		if !r.add(old, old+5) {
			t.Fatalf("add(%d) refused", old)
		}
	}
	if len(r.runs) != 1 || r.len() != 1000 {
		t.Fatalf("1000 consecutive ids: %d runs, len %d; want 1 run, len 1000", len(r.runs), r.len())
	}
	if r.add(500, 1) {
		t.Error("add(500) twice: accepted")
	}
	want := map[int64]int64{}
	for old := int64(10); old < 1010; old++ {
		want[old] = old + 5
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		old, new := rnd.Int64N(5000), rnd.Int64N(1<<40)
		_, dup := want[old]
		if got := r.add(old, new); got == dup {
			t.Fatalf("add(%d): %v with the id mapped already %v", old, got, dup)
		}
		if !dup {
			want[old] = new
		}
	}
	if r.len() != int64(len(want)) {
		t.Errorf("len %d, want %d", r.len(), len(want))
	}
	for old := int64(-1); old < 5001; old++ {
		got, ok := r.get(old)
		w, wok := want[old]
		if ok != wok || got != w || r.has(old) != wok {
			t.Fatalf("get(%d) = %d, %v; want %d, %v", old, got, ok, w, wok)
		}
	}
	for i := 1; i < len(r.runs); i++ {
		if p := r.runs[i-1]; p.old+p.n > r.runs[i].old {
			t.Fatalf("runs %d and %d overlap: %+v %+v", i-1, i, p, r.runs[i])
		}
	}
}
