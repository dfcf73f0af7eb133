package sqlstore_test

import (
	"testing"

	"github.com/teamchat/chat/messages"
	"github.com/teamchat/chat/storage"
)

// BenchmarkRowsOfBatch reads the rows and reactions of 1,000 consecutive messages at a time,
// as an export or a retention pass walks the history, from a store of 100,000 channel
// messages with rows for ten users each (1,000,000 rows); ns/op is one batch, the batches
// taken in turn across the history.
func BenchmarkRowsOfBatch(b *testing.B) {
	const total, batch = 100_000, 1000
	for _, be := range backends(b) {
		if be.name == "memory" {
			continue
		}
		b.Run(be.name, func(b *testing.B) {
			s := be.open(b)
			us := seedUsers(b, s, 10)
			ids := make([]messages.ID, 0, total)
			for len(ids) < total {
				mustUpdateB(b, s, func(tx storage.Tx) error {
					for range 10_000 {
						rows := make([]messages.UserMessage, len(us))
						for j, u := range us {
							rows[j] = messages.UserMessage{UserID: u, Flags: messages.Flags(j % 3)}
						}
						id, err := tx.Messages().Create(messages.Message{SenderID: us[0], ChannelID: 1, Topic: "bench",
							Content: "x", Rendered: "<p>x</p>", Timestamp: 1}, rows)
						if err != nil {
							return err
						}
						ids = append(ids, id)
					}
					return nil
				})
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				list := ids[i*batch : (i+1)*batch]
				i = (i + 1) % (total / batch)
				if err := s.View(b.Context(), func(tx storage.ReadTx) error {
					rows, err := tx.Messages().Rows(list)
					if err != nil {
						return err
					}
					if len(rows) != batch*len(us) {
						b.Fatalf("Rows of %d messages: %d rows, want %d", batch, len(rows), batch*len(us))
					}
					_, err = tx.Messages().Reactions(list)
					return err
				}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
