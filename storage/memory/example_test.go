package memory_test

import (
	"context"
	"fmt"

	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/users"
)

// Clone copies a store: build data once, then give each test its own copy.
func ExampleStore_Clone() {
	ctx := context.Background()
	template := memory.New()
	_ = template.Update(ctx, func(tx storage.Tx) error {
		_, err := tx.Users().Create(users.User{Email: "ada@example.com", FullName: "Ada", IsActive: true, APIKey: "k1"})
		return err
	})
	copy1, _ := template.Clone()
	_ = copy1.Update(ctx, func(tx storage.Tx) error {
		_, err := tx.Users().Create(users.User{Email: "bob@example.com", FullName: "Bob", IsActive: true, APIKey: "k2"})
		return err
	})
	for _, s := range []*memory.Store{template, copy1} {
		_ = s.View(ctx, func(tx storage.ReadTx) error {
			list, err := tx.Users().List()
			fmt.Println(len(list), "user(s)")
			return err
		})
	}
	// Output:
	// 1 user(s)
	// 2 user(s)
}
