package httpapi

import (
	"errors"
	"testing"

	chat "github.com/teamchat/chat"
)

// FuzzMessageParams feeds fuzzed to and narrow values to the message decoders and checks that
// nothing panics and that every error is a *chat.Error with a 4xx status.
func FuzzMessageParams(f *testing.F) {
	f.Add("Verona", `[{"operator":"channel","operand":"Verona"},["topic","party"]]`)
	f.Add(`["Verona"]`, `[["-sender","a@b.c"]]`)
	f.Add(`[9]`, `[{"operator":"dm","operand":[1,2],"negated":true}]`)
	f.Add(`"9"`, `[[1,2]]`)
	f.Add("a@b.c, d@e.f", `{"operator":"x"}`)
	f.Add(`[1,"x"]`, `[["a"]]`)
	f.Add(`[1.9]`, `[]`)
	f.Add(`true`, `null`)
	f.Fuzz(func(t *testing.T, to, narrow string) {
		check := func(err error) {
			if err == nil {
				return
			}
			var e *chat.Error
			if !errors.As(err, &e) || e.HTTPStatus() < 400 || e.HTTPStatus() >= 500 {
				t.Fatalf("error %v is not a client error", err)
			}
		}
		_, _, err := channelTo(to)
		check(err)
		_, _, err = directTo(to)
		check(err)
		p := &params{values: map[string]string{"narrow": narrow}, read: map[string]struct{}{}}
		_, err = narrowParam(p)
		check(err)
	})
}
