package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"sync"

	chat "github.com/teamchat/chat"
)

// getCustomEmoji serves GET /realm/emoji.
func (h *Handler) getCustomEmoji(r *request) (any, error) {
	return h.svc.GetCustomEmoji(r.ctx, r.actor)
}

// uploadCustomEmoji serves POST /realm/emoji/{emoji_name}: the image is the request's one
// file part.
func (h *Handler) uploadCustomEmoji(r *request) (any, error) {
	p := chat.UploadCustomEmojiParams{Name: r.path["emoji_name"], Files: len(r.params.files)}
	if len(r.params.files) == 1 {
		p.Image = r.params.files[0]
	}
	return h.svc.UploadCustomEmoji(r.ctx, r.actor, p)
}

// deactivateCustomEmoji serves DELETE /realm/emoji/{emoji_name}.
func (h *Handler) deactivateCustomEmoji(r *request) (any, error) {
	return h.svc.DeactivateCustomEmoji(r.ctx, r.actor, chat.DeactivateCustomEmojiParams{Name: r.path["emoji_name"]})
}

// emojiData is the encoded server emoji data file and its entity tag, made once.
type emojiData struct {
	once sync.Once
	body []byte
	etag string
}

// serveEmojiData serves chat.ServerEmojiDataPath: public, cacheable, not an API envelope (the
// mobile app reads code_to_names and nothing else).
func (h *Handler) serveEmojiData(w http.ResponseWriter, r *http.Request) {
	h.emojiData.once.Do(func() {
		body, err := json.Marshal(h.svc.GetServerEmojiData())
		if err != nil {
			h.log.Error("encoding the emoji data", "err", err)
			return
		}
		sum := sha256.Sum256(body)
		h.emojiData.body, h.emojiData.etag = body, `"`+hex.EncodeToString(sum[:8])+`"`
	})
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if h.emojiData.body == nil {
		http.Error(w, "emoji data unavailable", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Header().Set("ETag", h.emojiData.etag)
	if r.Header.Get("If-None-Match") == h.emojiData.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if r.Method == http.MethodGet {
		w.Write(h.emojiData.body)
	}
}
