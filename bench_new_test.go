package chat_test

import (
	"testing"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// BenchmarkNew measures what a test pays to start a Service with the production defaults
// (password hashing included): chat.New and Close on an empty memory store ("new"), and the
// same with an organization and three users without passwords ("organization+3users").
// chattest's BenchmarkNew measures its fixtures.
func BenchmarkNew(b *testing.B) {
	ctx := b.Context()
	start := func(b *testing.B) *chat.Service {
		svc, err := chat.New(chat.Options{Store: memory.New(), Logger: quietLogger()})
		if err != nil {
			b.Fatal(err)
		}
		return svc
	}
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			start(b).Close()
		}
	})
	b.Run("organization+3users", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			svc := start(b)
			if _, err := svc.CreateOrganization(ctx, chat.CreateOrganizationParams{Name: "Acme", URL: "https://chat.acme.test"}); err != nil {
				b.Fatal(err)
			}
			for _, p := range []chat.ProvisionUserParams{
				{Email: "ada@acme.test", FullName: "Ada", Role: users.RoleOwner},
				{Email: "bob@acme.test", FullName: "Bob"},
				{Email: "cy@acme.test", FullName: "Cy", Role: users.RoleGuest},
			} {
				if _, err := svc.ProvisionUser(ctx, p); err != nil {
					b.Fatal(err)
				}
			}
			svc.Close()
		}
	})
}
