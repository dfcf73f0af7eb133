package bots

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/teamchat/chat/internal/engine"
	"github.com/teamchat/chat/storage"
	"github.com/teamchat/chat/users"
)

// StorageSizeLimit bounds one bot's storage: the sum of the lengths, in characters, of its
// keys and values (Zulip's USER_STATE_SIZE_LIMIT).
const StorageSizeLimit = 10_000_000

// CodePermissionDenied is Zulip's PERMISSION_DENIED (feature level 494's BotRequiredError).
const CodePermissionDenied engine.Code = "PERMISSION_DENIED"

// errBotRequired refuses the bot storage endpoints to users who are not bots.
func errBotRequired() *engine.Error {
	return engine.Errorf(CodePermissionDenied, "This endpoint is only available to bot users.")
}

// errKeyDoesNotExist is Zulip's StateError for a key the bot does not have.
func errKeyDoesNotExist() *engine.Error { return engine.BadRequest("Key does not exist.") }

// Bots is the gate of the bot storage endpoints: an active bot.
func Bots(tx storage.ReadTx, actor engine.Actor) (users.User, error) {
	u, err := engine.SignedIn(tx, actor)
	if err == nil && !u.IsBot() {
		return users.User{}, errBotRequired()
	}
	return u, err
}

// checkText refuses text no store keeps alike (PostgreSQL refuses a null byte and invalid
// UTF-8 in text; SQLite and memory would keep them), named as the HTTP API names it, so the
// answer is the same on every backend.
func checkText(name string, texts ...string) error {
	for _, t := range texts {
		if strings.IndexByte(t, 0) >= 0 {
			return engine.InvalidArgument(name, "must not contain null bytes")
		}
		if !utf8.ValidString(t) {
			return engine.InvalidArgument(name, "must be valid UTF-8")
		}
	}
	return nil
}

// GetBotStorageParams are the parameters of GET /bot_storage.
type GetBotStorageParams struct {
	// Keys are the keys to read; empty or nil reads the whole storage.
	Keys []string
}

// GetBotStorageResult is the bot's storage, or the part of it the keys name.
type GetBotStorageResult struct {
	Storage map[string]string `json:"storage"`
}

// GetBotStorage returns the acting bot's values of the keys (all of its storage when none is
// given). A key the bot does not have is refused ("Key does not exist.").
func (s *Service) GetBotStorage(ctx context.Context, actor engine.Actor, p GetBotStorageParams) (GetBotStorageResult, error) {
	if err := checkText("keys", p.Keys...); err != nil {
		return GetBotStorageResult{}, err
	}
	var res GetBotStorageResult
	err := s.eng.Read(ctx, actor, Bots, func(o *engine.ReadOp) error {
		got, err := o.Tx.BotStorage().Get(o.Me.ID, p.Keys)
		if err != nil {
			return err
		}
		for _, k := range p.Keys {
			if _, ok := got[k]; !ok {
				return errKeyDoesNotExist()
			}
		}
		res.Storage = got
		return nil
	})
	if err != nil {
		return GetBotStorageResult{}, err
	}
	return res, nil
}

// UpdateBotStorageParams are the parameters of PUT /bot_storage.
type UpdateBotStorageParams struct {
	// Storage maps the keys to set to their new values.
	Storage map[string]string
}

// UpdateBotStorageResult is empty.
type UpdateBotStorageResult struct{}

// UpdateBotStorage creates or replaces entries of the acting bot's storage. A change that
// would take the storage past StorageSizeLimit characters is refused and changes nothing.
func (s *Service) UpdateBotStorage(ctx context.Context, actor engine.Actor, p UpdateBotStorageParams) (UpdateBotStorageResult, error) {
	if p.Storage == nil {
		return UpdateBotStorageResult{}, engine.MissingArgument("storage")
	}
	for k, v := range p.Storage {
		if err := checkText("storage", k, v); err != nil {
			return UpdateBotStorageResult{}, err
		}
	}
	err := s.eng.Mutate(ctx, actor, Bots, func(o *engine.WriteOp) error {
		st := o.Tx.BotStorage()
		keys := make([]string, 0, len(p.Storage))
		var added int64
		for k, v := range p.Storage {
			keys = append(keys, k)
			added += int64(utf8.RuneCountInString(k) + utf8.RuneCountInString(v))
		}
		old, err := st.Get(o.Me.ID, keys)
		if err != nil {
			return err
		}
		for k, v := range old {
			added -= int64(utf8.RuneCountInString(k) + utf8.RuneCountInString(v))
		}
		size, err := st.Size(o.Me.ID)
		if err != nil {
			return err
		}
		if total := size + added; total > StorageSizeLimit {
			return engine.BadRequest("Request exceeds storage limit by %d characters. The limit is %d characters.",
				total-StorageSizeLimit, StorageSizeLimit)
		}
		return st.Put(o.Me.ID, p.Storage)
	})
	return UpdateBotStorageResult{}, err
}

// RemoveBotStorageParams are the parameters of DELETE /bot_storage.
type RemoveBotStorageParams struct {
	// Keys are the keys to remove; empty or nil removes the whole storage.
	Keys []string
}

// RemoveBotStorageResult is empty.
type RemoveBotStorageResult struct{}

// RemoveBotStorage removes entries of the acting bot's storage (all of them when no key is
// given). If any key is missing (a key named twice counts twice, as in Zulip), nothing is
// removed: "Key does not exist.".
func (s *Service) RemoveBotStorage(ctx context.Context, actor engine.Actor, p RemoveBotStorageParams) (RemoveBotStorageResult, error) {
	if err := checkText("keys", p.Keys...); err != nil {
		return RemoveBotStorageResult{}, err
	}
	err := s.eng.Mutate(ctx, actor, Bots, func(o *engine.WriteOp) error {
		st := o.Tx.BotStorage()
		if len(p.Keys) > 0 {
			got, err := st.Get(o.Me.ID, p.Keys)
			if err != nil {
				return err
			}
			if len(got) < len(p.Keys) {
				return errKeyDoesNotExist()
			}
		}
		if _, err := st.Delete(o.Me.ID, p.Keys); err != nil {
			return fmt.Errorf("bots: removing storage: %w", err)
		}
		return nil
	})
	return RemoveBotStorageResult{}, err
}

// BotConfigSizeLimit bounds an embedded bot's configuration: the sum of the lengths, in
// characters, of its keys and values (Zulip's BOT_CONFIG_SIZE_LIMIT).
const BotConfigSizeLimit = 10_000

// CheckBotConfig applies Zulip's set_bot_config limit to an embedded bot's configuration.
func CheckBotConfig(config map[string]string) error {
	size := 0
	for k, v := range config {
		size += utf8.RuneCountInString(k) + utf8.RuneCountInString(v)
	}
	if size > BotConfigSizeLimit {
		return engine.BadRequest("Cannot store configuration. Request would require %d characters. "+
			"The current configuration size limit is %d characters.", size, BotConfigSizeLimit)
	}
	return nil
}
