package mattermostimport_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/teamchat/chat/transfer/mattermostimport"
)

// One team of a bulk export converted into a directory that the Zulip-format import loads.
func ExampleConvertMattermost() {
	ctx := context.Background()
	opts := mattermostimport.Options{Logger: slog.New(slog.DiscardHandler)}
	teams, err := mattermostimport.Teams(ctx, "testdata/teams/export.json", opts)
	if err != nil {
		log.Fatal(err)
	}
	out, err := os.MkdirTemp("", "converted")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(out)
	st, err := mattermostimport.ConvertMattermost(ctx, "testdata/teams/export.json", teams[0], filepath.Join(out, teams[0]), opts)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d users, %d channels, %d messages\n", teams[0], st.Users, st.Channels, st.Messages)
	// Output: gryffindor: 3 users, 3 channels, 17 messages
}
