package httpapi

import "testing"

func TestHasEscapedNUL(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]bool{
		`"a\u0000b"`:     true,
		`["\u0000"]`:     true,
		`{"k":"\u0000"}`: true,
		`"\\u0000"`:      false, // the text \u0000
		`"\\\u0000"`:     true,  // a backslash, then NUL
		`"\u00001"`:      true,
		`"\u0001"`:       false,
		`"u0000"`:        false,
		`"\"\u0000"`:     true,
		`"\`:             false,
	} {
		if got := hasEscapedNUL(raw); got != want {
			t.Errorf("hasEscapedNUL(%s) = %v, want %v", raw, got, want)
		}
	}
}
