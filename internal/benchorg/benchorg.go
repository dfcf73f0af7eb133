package benchorg

import (
	"context"
	"errors"
	"fmt"
	"time"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/channels"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// Spec describes the organization to build.
type Spec struct {
	// Users is the number of members besides the administrator.
	Users int
	// Channels is the number of public channels; the administrator is subscribed to all.
	Channels int
	// SubsPerUser subscribes each member to this many channels (round-robin over the channels,
	// so that every channel gets about Users*SubsPerUser/Channels subscribers).
	SubsPerUser int
}

// Org is what Build made.
type Org struct {
	Admin    chat.Actor
	AdminKey string
	// Members, with their emails and API keys at the same index.
	Members  []users.ID
	Emails   []string
	Keys     []string
	Channels []channels.ID // ascending
	Names    []string      // channel names, same order
}

// Email is the address of member i (0-based).
func Email(i int) string { return fmt.Sprintf("user%d@load.example.com", i) }

// ChannelName is the name of channel i (0-based).
func ChannelName(i int) string { return fmt.Sprintf("channel %d", i) }

// adminEmail is the load organization's administrator.
const adminEmail = "admin@load.example.com"

// Built reports whether store already holds a load organization (a server restarted on a
// persistent store with the same flags).
func Built(ctx context.Context, store storage.Storage) (bool, error) {
	var found bool
	err := store.View(ctx, func(tx storage.ReadTx) error {
		_, err := tx.Users().GetByEmail(adminEmail)
		switch {
		case err == nil:
			found = true
		case errors.Is(err, storage.ErrNotFound):
		default:
			return err
		}
		return nil
	})
	return found, err
}

// Build fills an empty organization of svc (CreateOrganization already called, no queues yet).
func Build(ctx context.Context, svc *chat.Service, store storage.Storage, s Spec) (*Org, error) {
	admin, err := svc.ProvisionUser(ctx, chat.ProvisionUserParams{
		Email: adminEmail, FullName: "Load Admin", Role: users.RoleAdministrator,
	})
	if err != nil {
		return nil, err
	}
	org := &Org{Admin: chat.Actor{UserID: admin.UserID}, AdminKey: admin.APIKey}
	if err := addMembers(ctx, store, org, s.Users); err != nil {
		return nil, err
	}
	if err := addChannels(ctx, svc, store, org, s.Channels); err != nil {
		return nil, err
	}
	if err := subscribe(ctx, store, org, s.SubsPerUser); err != nil {
		return nil, err
	}
	return org, nil
}

// addMembers creates n members in batches, each in the system groups of its role.
func addMembers(ctx context.Context, store storage.Storage, org *Org, n int) error {
	const batch = 2000
	now := time.Now()
	for start := 0; start < n; start += batch {
		end := min(n, start+batch)
		err := store.Update(ctx, func(tx storage.Tx) error {
			realm, err := tx.Realm().Get()
			if err != nil {
				return err
			}
			ids := make([]users.ID, 0, end-start)
			for i := start; i < end; i++ {
				id, err := tx.Users().Create(users.User{
					Email: Email(i), FullName: fmt.Sprintf("User %d", i), Role: users.RoleMember,
					IsActive: true, APIKey: apiKey(i), DateJoined: now,
					AvatarSource: users.AvatarGravatar, AvatarVersion: 1,
					EmailVisibility: realm.DefaultEmailVisibility,
				})
				if err != nil {
					return fmt.Errorf("benchorg: user %d: %w", i, err)
				}
				ids = append(ids, id)
			}
			groups := []string{users.SystemGroupForRole(users.RoleMember)}
			if realm.WaitingPeriodThreshold == 0 {
				groups = append(groups, users.GroupFullMembers)
			}
			for _, name := range groups {
				g, err := tx.Groups().GetByName(name)
				if err != nil {
					return err
				}
				if err := tx.Groups().AddMembers(g.ID, ids); err != nil {
					return err
				}
			}
			org.Members = append(org.Members, ids...)
			return nil
		})
		if err != nil {
			return err
		}
		for i := start; i < end; i++ {
			org.Emails = append(org.Emails, Email(i))
			org.Keys = append(org.Keys, apiKey(i))
		}
	}
	return nil
}

// apiKey is member i's API key: 32 letters and digits, unique per member.
func apiKey(i int) string { return fmt.Sprintf("benchorgKey%021d", i) }

// addChannels creates n public channels through the Service (so that they get the defaults of
// a real creation), the administrator subscribed to each.
func addChannels(ctx context.Context, svc *chat.Service, store storage.Storage, org *Org, n int) error {
	for start := 0; start < n; start += chat.MaxSubscribeChannels {
		end := min(n, start+chat.MaxSubscribeChannels)
		var req []chat.SubscriptionRequest
		for i := start; i < end; i++ {
			req = append(req, chat.SubscriptionRequest{Name: ChannelName(i)})
		}
		if _, err := svc.Subscribe(ctx, org.Admin, chat.SubscribeParams{Subscriptions: req}); err != nil {
			return fmt.Errorf("benchorg: channels: %w", err)
		}
	}
	// Only the channels made here: an organization seeded before (the development one of
	// chatserver --dev) has channels of its own, which would shift the round-robin of
	// subscribe and leave members out of "channel 0".
	return store.View(ctx, func(tx storage.ReadTx) error {
		all, err := tx.Channels().List()
		if err != nil {
			return err
		}
		byName := make(map[string]channels.ID, len(all))
		for _, c := range all {
			byName[c.Name] = c.ID
		}
		for i := range n {
			id, ok := byName[ChannelName(i)]
			if !ok {
				return fmt.Errorf("benchorg: channel %q was not created", ChannelName(i))
			}
			org.Channels = append(org.Channels, id)
			org.Names = append(org.Names, ChannelName(i))
		}
		return nil
	})
}

// subscribe gives member i the channels i, i+1, ... (k of them, modulo the channel count).
func subscribe(ctx context.Context, store storage.Storage, org *Org, k int) error {
	if k <= 0 || len(org.Channels) == 0 {
		return nil
	}
	k = min(k, len(org.Channels))
	const batch = 20000
	var rows []channels.Subscription
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		err := store.Update(ctx, func(tx storage.Tx) error { return tx.Subscriptions().Put(rows) })
		rows = rows[:0]
		return err
	}
	for i, u := range org.Members {
		for j := range k {
			c := org.Channels[(i+j)%len(org.Channels)]
			rows = append(rows, channels.Subscription{UserID: u, ChannelID: c, Active: true, Color: color(i + j)})
		}
		if len(rows) >= batch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// SubscribeUser makes u an active subscriber of the first k channels (and of no other).
func SubscribeUser(ctx context.Context, store storage.Storage, org *Org, u users.ID, k int) error {
	return store.Update(ctx, func(tx storage.Tx) error {
		old, err := tx.Subscriptions().ListForUsers([]users.ID{u})
		if err != nil {
			return err
		}
		for i := range old {
			old[i].Active = false
		}
		if err := tx.Subscriptions().Put(old); err != nil {
			return err
		}
		rows := make([]channels.Subscription, 0, k)
		for j := range min(k, len(org.Channels)) {
			rows = append(rows, channels.Subscription{UserID: u, ChannelID: org.Channels[j], Active: true, Color: color(j)})
		}
		return tx.Subscriptions().Put(rows)
	})
}

func color(i int) string {
	palette := []string{"#76ce90", "#fae589", "#a6c7e5", "#e79ab5", "#bfd56f", "#f4ae55", "#b0a5fd", "#addfe5"}
	return palette[i%len(palette)]
}
