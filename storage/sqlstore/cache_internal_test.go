package sqlstore

import "testing"

func TestSnapshotRules(t *testing.T) {
	t.Parallel()
	mustParse := func(s string) pgSnapshot {
		t.Helper()
		snap, err := parseSnapshot(s)
		if err != nil {
			t.Fatal(err)
		}
		return snap
	}
	s := mustParse("100:105:101,103")
	for _, tc := range []struct {
		xid  int64
		want bool
	}{{99, true}, {100, true}, {101, false}, {102, true}, {103, false}, {104, true}, {105, false}, {200, false}} {
		if got := s.sees(tc.xid); got != tc.want {
			t.Errorf("100:105:101,103 sees %d = %v, want %v", tc.xid, got, tc.want)
		}
	}
	for _, tc := range []struct {
		later string
		want  bool
	}{
		{"100:105:101,103", true},      // the same snapshot
		{"101:110:101,107", true},      // 103 finished, 101 still running: nothing s saw is hidden
		{"106:106:", true},             // everything finished
		{"100:104:101,103", false},     // an older snapshot: xmax went back
		{"100:105:101,102,103", false}, // 102, which s saw finished, is running: older
	} {
		if got := s.within(mustParse(tc.later)); got != tc.want {
			t.Errorf("100:105:101,103 within %s = %v, want %v", tc.later, got, tc.want)
		}
	}
	if (pgSnapshot{}).within(s) {
		t.Error("the zero snapshot is within another")
	}
	if !s.sawAll(nil) || !s.sawAll([]int64{99, 102, 104}) || s.sawAll([]int64{102, 103}) || s.sawAll([]int64{106}) {
		t.Error("sawAll disagrees with sees")
	}
	for _, bad := range []string{"", "1:2", "a:2:", "1:b:", "1:2:c"} {
		if _, err := parseSnapshot(bad); err == nil {
			t.Errorf("parseSnapshot(%q) succeeded", bad)
		}
	}
}
