package slackimport_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/teamchat/chat/transfer/slackimport"
)

// An unzipped export (ConvertSlack takes the zip Slack hands out) converted into a directory
// that the Zulip-format import loads.
func ExampleConvertSlackDir() {
	out, err := os.MkdirTemp("", "converted")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(out)
	st, err := slackimport.ConvertSlackDir(context.Background(), "testdata/workspace", filepath.Join(out, "realm"), slackimport.Options{
		Domain: "example.com",
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d users, %d channels, %d messages, %d reactions\n", st.Users, st.Channels, st.Messages, st.Reactions)
	// Output: 6 users, 3 channels, 21 messages, 4 reactions
}
