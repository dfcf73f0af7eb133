package pgbus

import "testing"

func TestParseSnapshot(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		in   []uint64
		out  []uint64
	}{
		{"100:100:", []uint64{1, 99}, []uint64{100, 101}},
		{"100:105:100,103", []uint64{99, 101, 102, 104}, []uint64{100, 103, 105, 200}},
	}
	for _, tt := range tests {
		s, err := parseSnapshot(tt.text)
		if err != nil {
			t.Fatalf("%q: %v", tt.text, err)
		}
		for _, x := range tt.in {
			if !s.includes(x) {
				t.Errorf("%q does not include %d", tt.text, x)
			}
		}
		for _, x := range tt.out {
			if s.includes(x) {
				t.Errorf("%q includes %d", tt.text, x)
			}
		}
	}
	for _, bad := range []string{"", "1:2", "a:2:", "1:b:", "1:2:x"} {
		if _, err := parseSnapshot(bad); err == nil {
			t.Errorf("parseSnapshot(%q) succeeded", bad)
		}
	}
}
