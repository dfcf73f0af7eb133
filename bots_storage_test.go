package chat_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/bots"
	"github.com/teamchat/chat/storage/memory"
	"github.com/teamchat/chat/storage/storagetest"
)

// TestBotStorageLimit: the storage of a bot holds bots.StorageSizeLimit characters (keys and
// values, counted in code points); a change past it is refused with Zulip's text and changes
// nothing; replacing a value counts only the difference.
func TestBotStorageLimit(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		bot := f.actor("bot")
		big := strings.Repeat("é", bots.StorageSizeLimit-2) // "k" + big + "x" + "" = the limit
		steps := []struct {
			name    string
			storage map[string]string
			wantErr string
		}{
			{"up to the limit", map[string]string{"k": big, "x": ""}, ""},
			{"one character more", map[string]string{"y": ""}, "Request exceeds storage limit by 1 characters. The limit is 10000000 characters."},
			{"replacing within the limit", map[string]string{"k": big[:len(big)-4] + "ab"}, ""},
			{"replacing past it", map[string]string{"k": big + "abc", "z": ""}, "Request exceeds storage limit by 4 characters. The limit is 10000000 characters."},
		}
		for _, s := range steps {
			_, err := f.svc.UpdateBotStorage(ctx, bot, chat.UpdateBotStorageParams{Storage: s.storage})
			if s.wantErr == "" {
				if err != nil {
					t.Fatalf("%s: %v", s.name, err)
				}
				continue
			}
			wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, s.wantErr)
		}
		got, err := f.svc.GetBotStorage(ctx, bot, chat.GetBotStorageParams{Keys: []string{"x"}})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]string{"x": ""}, got.Storage); diff != "" {
			t.Errorf("storage (-want +got):\n%s", diff)
		}
		_, err = f.svc.GetBotStorage(ctx, bot, chat.GetBotStorageParams{Keys: []string{"y"}})
		wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Key does not exist.")
	})
}

// TestBotStorageErrors: bots only; a missing key fails the whole removal (a key named twice
// counts twice, as in Zulip); a failed write changes nothing.
func TestBotStorageErrors(t *testing.T) {
	t.Parallel()
	onEveryBackend(t, func(t *testing.T, f *fixture) {
		ctx := t.Context()
		bot := f.actor("bot")
		if _, err := f.svc.UpdateBotStorage(ctx, bot, chat.UpdateBotStorageParams{Storage: map[string]string{"a": "1", "b": "2"}}); err != nil {
			t.Fatal(err)
		}
		for _, who := range []string{"member", "owner", "guest"} {
			_, err := f.svc.GetBotStorage(ctx, f.actor(who), chat.GetBotStorageParams{})
			wantError(t, err, bots.CodePermissionDenied, http.StatusBadRequest, "This endpoint is only available to bot users.")
			_, err = f.svc.UpdateBotStorage(ctx, f.actor(who), chat.UpdateBotStorageParams{Storage: map[string]string{}})
			wantError(t, err, bots.CodePermissionDenied, http.StatusBadRequest, "")
			_, err = f.svc.RemoveBotStorage(ctx, f.actor(who), chat.RemoveBotStorageParams{})
			wantError(t, err, bots.CodePermissionDenied, http.StatusBadRequest, "")
		}
		for _, keys := range [][]string{{"a", "missing"}, {"a", "a"}} {
			_, err := f.svc.RemoveBotStorage(ctx, bot, chat.RemoveBotStorageParams{Keys: keys})
			wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Key does not exist.")
		}
		_, err := f.svc.UpdateBotStorage(ctx, bot, chat.UpdateBotStorageParams{})
		wantError(t, err, chat.CodeRequestVariableMissing, http.StatusBadRequest, "Missing 'storage' argument")
		// Text no store keeps alike is refused the same way on every backend.
		_, err = f.svc.UpdateBotStorage(ctx, bot, chat.UpdateBotStorageParams{Storage: map[string]string{"a": "nul\x00"}})
		wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Invalid storage: must not contain null bytes")
		_, err = f.svc.UpdateBotStorage(ctx, bot, chat.UpdateBotStorageParams{Storage: map[string]string{"\xff": "x"}})
		wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Invalid storage: must be valid UTF-8")
		_, err = f.svc.GetBotStorage(ctx, bot, chat.GetBotStorageParams{Keys: []string{"a\x00"}})
		wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Invalid keys: must not contain null bytes")
		_, err = f.svc.RemoveBotStorage(ctx, bot, chat.RemoveBotStorageParams{Keys: []string{"\xfe"}})
		wantError(t, err, chat.CodeBadRequest, http.StatusBadRequest, "Invalid keys: must be valid UTF-8")
		got, err := f.svc.GetBotStorage(ctx, bot, chat.GetBotStorageParams{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]string{"a": "1", "b": "2"}, got.Storage); diff != "" {
			t.Errorf("storage after the refusals (-want +got):\n%s", diff)
		}
	})
}

// TestBotStorageFailedWrite: a write failing mid-operation leaves the storage as it was.
func TestBotStorageFailedWrite(t *testing.T) {
	t.Parallel()
	faulty := storagetest.NewFaulty(memory.New())
	f := newFixtureOn(t, faulty)
	ctx := t.Context()
	bot := f.actor("bot")
	if _, err := f.svc.UpdateBotStorage(ctx, bot, chat.UpdateBotStorageParams{Storage: map[string]string{"a": "1"}}); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk on fire")
	faulty.FailWritesAfter(0, boom)
	_, errUpdate := f.svc.UpdateBotStorage(ctx, bot, chat.UpdateBotStorageParams{Storage: map[string]string{"a": "2", "b": "3"}})
	_, errRemove := f.svc.RemoveBotStorage(ctx, bot, chat.RemoveBotStorageParams{})
	faulty.FailWritesAfter(-1, nil)
	if !errors.Is(errUpdate, boom) || !errors.Is(errRemove, boom) {
		t.Fatalf("errors = %v, %v; want the storage failure", errUpdate, errRemove)
	}
	got, err := f.svc.GetBotStorage(ctx, bot, chat.GetBotStorageParams{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"a": "1"}, got.Storage); diff != "" {
		t.Errorf("storage after failed writes (-want +got):\n%s", diff)
	}
}
