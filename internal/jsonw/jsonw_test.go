package jsonw_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/teamchat/chat/internal/jsonw"
)

func marshal(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestStringMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	cases := []string{
		"", "plain", `quote " backslash \ slash /`, "<script>&amp;</script>",
		"\b\f\n\r\t\x00\x01\x1f\x7f", "é ü 日本語 🎉", "\u2028\u2029 line separators",
		"bad \xff utf-8 \xc3", "\xed\xa0\x80 surrogate", "trailing \xe2\x82",
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		if got, want := string(jsonw.String(nil, s)), marshal(t, s); got != want {
			t.Errorf("String(%q) = %s, want %s", s, got, want)
		}
	}
}

func TestScalarsMatchEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, v := range []int64{0, 1, -1, 42, math.MaxInt64, math.MinInt64} {
		if got, want := string(jsonw.Int(nil, v)), marshal(t, v); got != want {
			t.Errorf("Int(%d) = %s, want %s", v, got, want)
		}
		if got, want := string(jsonw.IntPtr(nil, &v)), marshal(t, &v); got != want {
			t.Errorf("IntPtr(%d) = %s, want %s", v, got, want)
		}
	}
	if got := string(jsonw.IntPtr[int](nil, nil)); got != "null" {
		t.Errorf("IntPtr(nil) = %s", got)
	}
	for _, v := range []bool{false, true} {
		if got, want := string(jsonw.Bool(nil, v)), marshal(t, v); got != want {
			t.Errorf("Bool(%v) = %s, want %s", v, got, want)
		}
		if got, want := string(jsonw.BoolPtr(nil, &v)), marshal(t, &v); got != want {
			t.Errorf("BoolPtr(%v) = %s, want %s", v, got, want)
		}
	}
	if got := string(jsonw.BoolPtr(nil, nil)); got != "null" {
		t.Errorf("BoolPtr(nil) = %s", got)
	}
	for _, l := range [][]int64{nil, {}, {7}, {1, -2, 3}} {
		if got, want := string(jsonw.Ints(nil, l)), marshal(t, l); got != want {
			t.Errorf("Ints(%v) = %s, want %s", l, got, want)
		}
	}
}

// FuzzString holds String to encoding/json's output for any string.
func FuzzString(f *testing.F) {
	for _, s := range []string{"", "a<b>&c", "\u2028", "\xff", "\"\\\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(jsonw.String([]byte("x"), s)), "x"+marshal(t, s); got != want {
			t.Fatalf("String(%q) = %s, want %s", s, got, want)
		}
	})
}
