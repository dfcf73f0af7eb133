package chattest_test

import (
	"testing"

	"github.com/teamchat/chat/chattest"
	"github.com/teamchat/chat/seeds"
)

// BenchmarkNew measures a fixture from start to Close: an empty organization, the development
// organization (copied from the process's template, built before the timer starts), the
// development organization served over HTTP, and the development organization built through
// the Service for each fixture (what copying saves). BENCHMARKS.md has the numbers beside chat.New's.
func BenchmarkNew(b *testing.B) {
	for _, bc := range []struct {
		name  string
		start func() (interface{ Close() error }, error)
	}{
		{"empty", func() (interface{ Close() error }, error) { return chattest.Start() }},
		{"dev", func() (interface{ Close() error }, error) { return chattest.Start(chattest.Dev()) }},
		{"dev+server", func() (interface{ Close() error }, error) { return chattest.StartServer(chattest.Dev()) }},
		// The same organization applied through the Service for each fixture, as Seed does.
		{"dev-built", func() (interface{ Close() error }, error) {
			return chattest.Start(chattest.Seed(seeds.Dev(seeds.DevPassword)))
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			warm, err := bc.start() // builds the template outside the timed loop
			if err != nil {
				b.Fatal(err)
			}
			warm.Close()
			b.ReportAllocs()
			for b.Loop() {
				f, err := bc.start()
				if err != nil {
					b.Fatal(err)
				}
				f.Close()
			}
		})
	}
}
