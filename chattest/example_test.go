package chattest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/chattest"
)

// In a test, chattest.New(t, chattest.Dev()) does the same and closes the fixture through
// t.Cleanup; Start serves code without a testing.TB, such as this example.
func ExampleStart() {
	ctx := context.Background()
	f, err := chattest.Start(chattest.Dev())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()

	iago, hamlet := f.User("iago@zulip.com"), f.User("hamlet@zulip.com")
	topic := "greetings"
	if _, err := f.Service.SendMessage(ctx, iago.Actor(), chat.SendMessageParams{
		Type: "stream", ChannelName: "Denmark", Topic: &topic, Content: "Hello, **Hamlet**!",
	}); err != nil {
		fmt.Println(err)
		return
	}
	res, err := f.Service.GetMessages(ctx, hamlet.Actor(), chat.GetMessagesParams{Anchor: "newest", NumBefore: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	m := res.Messages[len(res.Messages)-1]
	fmt.Println(m.SenderFullName, "in", m.DisplayRecipient, ">", m.Subject+":", m.Content)
	fmt.Println("sent at", time.Unix(m.Timestamp, 0).UTC().Format(time.RFC3339))
	// Output:
	// Iago in Denmark > greetings: <p>Hello, <strong>Hamlet</strong>!</p>
	// sent at 2026-01-01T00:00:00Z
}

// The clock stands still until the test moves it: invitation links, event queues and edit
// limits expire when it says so.
func ExampleClock() {
	f, err := chattest.Start()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	fmt.Println(f.Clock.Now().Format(time.RFC3339))
	fmt.Println(f.Clock.Advance(36 * time.Hour).Format(time.RFC3339))
	// Output:
	// 2026-01-01T00:00:00Z
	// 2026-01-02T12:00:00Z
}

// A Server serves the API at its URL; any Zulip client library reaches it with a user's
// email and API key (or with the text of Zuliprc).
func ExampleServer() {
	s, err := chattest.StartServer(chattest.Dev())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()

	hamlet := s.User("hamlet@zulip.com")
	req, err := http.NewRequest("GET", s.URL+"/api/v1/users/me/subscriptions", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	req.SetBasicAuth(hamlet.Email, hamlet.APIKey)
	resp, err := s.HTTP.Client().Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var body struct {
		Subscriptions []struct {
			Name string `json:"name"`
		} `json:"subscriptions"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		fmt.Println(err)
		return
	}
	for _, sub := range body.Subscriptions {
		fmt.Println(sub.Name)
	}
	// Output:
	// Denmark
	// Verona
	// Zulip
	// core team
	// sandbox
}

// Zuliprc is the configuration file that Zulip clients read (python `zulip`, zulip-js,
// zulip-terminal); ZuliprcFile writes it in the test's temporary directory.
func ExampleServer_Zuliprc() {
	s, err := chattest.StartServer(chattest.Dev())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	rc := s.Zuliprc("iago@zulip.com")
	fmt.Println(rc == "[api]\nemail=iago@zulip.com\nkey="+s.User("iago@zulip.com").APIKey+"\nsite="+s.URL+"\n")
	// Output:
	// true
}
