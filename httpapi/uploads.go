package httpapi

import (
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	chat "github.com/teamchat/chat"
	"github.com/teamchat/chat/uploads"
)

// Uploads stream: POST /user_uploads (and POST /users/me/avatar) read their multipart body
// themselves, part by part, handing the file part to the Service as a reader, so that a
// large file never sits in memory. Downloads (/user_uploads/... outside /api/v1/) are served
// with http.ServeContent (range requests) and headers that keep browsers from running the
// file as active content of the server's origin.

// uploadSlack is what a multipart upload body may hold beyond the file: boundaries, headers
// and small form fields.
const uploadSlack = 1 << 20

// maxFieldBytes bounds one non-file field of an upload body.
const maxFieldBytes = 64 << 10

// streamsBody reports the routes whose handler reads the request body itself.
func streamsBody(method, pattern string) bool {
	return method == http.MethodPost && (pattern == "user_uploads" || pattern == "users/me/avatar" || pattern == "external/{integration}")
}

// uploadBody is the multipart body of an upload: a reader of its parts, bounded.
type uploadBody struct {
	mr     *multipart.Reader
	body   *boundedReader
	params *params
	parts  int
}

// openUploadBody prepares to read r's multipart body; a body that is not multipart holds no
// file.
func openUploadBody(r *request, limit int64) (*uploadBody, error) {
	media, mparams, err := mime.ParseMediaType(r.http.Header.Get("Content-Type"))
	if err != nil || media != mediaMultipart || mparams["boundary"] == "" || r.http.Body == nil {
		return nil, nil
	}
	if r.http.ContentLength > limit {
		return nil, errBodyTooLarge()
	}
	body := &boundedReader{r: r.http.Body, left: limit}
	return &uploadBody{mr: multipart.NewReader(body, mparams["boundary"]), body: body, params: r.params}, nil
}

// nextFile skips to the next file part, keeping the form fields before it as parameters;
// nil at the end of the body.
func (u *uploadBody) nextFile() (*multipart.Part, error) {
	for {
		part, err := u.mr.NextPart()
		if err == io.EOF || err != nil && u.parts == 0 && u.body.empty() {
			return nil, nil
		}
		if err != nil {
			return nil, u.body.failure(err)
		}
		if u.parts++; u.parts > maxParams {
			return nil, errTooManyParams()
		}
		disposition, dparams, err := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
		name := dparams["name"]
		if err != nil || disposition != "form-data" {
			continue
		}
		if filename, isFile := dparams["filename"]; isFile {
			if filename == "" {
				continue // no file chosen (as Django, which drops such parts)
			}
			return part, nil
		}
		value, err := io.ReadAll(io.LimitReader(part, maxFieldBytes+1))
		if err != nil {
			return nil, u.body.failure(err)
		}
		if len(value) > maxFieldBytes || !utf8.ValidString(name) || !utf8.Valid(value) {
			return nil, errMalformedPayload(errors.New("bad form field in an upload"))
		}
		if _, dup := u.params.values[name]; !dup {
			u.params.values[name] = string(value)
		}
	}
}

// fileName is the name a client gave a file part, without any directory (as Django keeps
// it).
func fileName(p *multipart.Part) string {
	_, dparams, _ := mime.ParseMediaType(p.Header.Get("Content-Disposition"))
	name := dparams["filename"]
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimSpace(name)
}

// soleFile reads a file part; at its end it reads the rest of the body and fails with
// "You may only upload one file at a time" when another file follows.
type soleFile struct {
	part *multipart.Part
	body *uploadBody
	done bool
	// several is the refusal of a second file (default: one file at a time).
	several *chat.Error
}

func (f *soleFile) Read(p []byte) (int, error) {
	if f.done {
		return 0, io.EOF
	}
	n, err := f.part.Read(p)
	if err == io.EOF {
		next, nerr := f.body.nextFile()
		if nerr != nil {
			return n, nerr
		}
		if next != nil {
			if f.several != nil {
				return n, f.several
			}
			return n, chat.ErrOneFileAtATime()
		}
		f.done = true
		return n, io.EOF
	}
	if err != nil {
		return n, f.body.body.failure(err)
	}
	return n, nil
}

// uploadFile serves POST /user_uploads.
func (h *Handler) uploadFile(r *request) (any, error) {
	body, err := openUploadBody(r, h.svc.MaxUploadBytes()+uploadSlack)
	if err != nil {
		return nil, err
	}
	if body == nil {
		return nil, chat.ErrNoFile()
	}
	part, err := body.nextFile()
	if err != nil {
		return nil, err
	}
	if part == nil {
		return nil, chat.ErrNoFile()
	}
	return h.svc.UploadFile(r.ctx, r.actor, chat.UploadFileParams{
		Filename: fileName(part), ContentType: part.Header.Get("Content-Type"), Content: &soleFile{part: part, body: body},
	})
}

// getFileTemporaryURL serves GET /user_uploads/{realm_id_str}/{filename...}.
func (h *Handler) getFileTemporaryURL(r *request) (any, error) {
	return h.svc.GetFileTemporaryURL(r.ctx, r.actor, chat.GetFileTemporaryURLParams{PathID: r.path["realm_id_str"] + "/" + r.path["filename"]})
}

// getAttachments serves GET /attachments.
func (h *Handler) getAttachments(r *request) (any, error) {
	return h.svc.GetAttachments(r.ctx, r.actor, chat.GetAttachmentsParams{})
}

// removeAttachment serves DELETE /attachments/{attachment_id}.
func (h *Handler) removeAttachment(r *request) (any, error) {
	return h.svc.RemoveAttachment(r.ctx, r.actor, chat.RemoveAttachmentParams{AttachmentID: pathID[uploads.ID](r, "attachment_id")})
}

// uploadCSP keeps a served file from running scripts, loading anything or reaching the
// server's origin: even HTML opened directly is sandboxed.
const uploadCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; media-src 'self'; object-src 'self'; sandbox"

// serveUpload serves the files under /user_uploads/: a file or thumbnail to whoever may read
// it (a web session, as Zulip's serve_file_backend, or HTTP Basic credentials), and temporary
// URLs (/user_uploads/temporary/{token}/{name}) to anyone.
func (h *Handler) serveUpload(w http.ResponseWriter, r *http.Request, rest string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		writeMethodNotAllowed(w, []string{http.MethodGet, http.MethodHead})
		return
	}
	var (
		file chat.UploadedFile
		err  error
	)
	segs := strings.Split(rest, "/")
	switch {
	case segs[0] == "temporary" && len(segs) == 3:
		file, err = h.svc.GetUploadedFileByToken(r.Context(), chat.GetUploadedFileByTokenParams{Token: segs[1], Filename: segs[2]})
	case segs[0] == "thumbnail" && len(segs) >= 3:
		var actor chat.Actor
		if actor, err = h.authenticateWeb(r, false); err == nil {
			file, err = h.svc.GetUploadedFile(r.Context(), actor, chat.GetUploadedFileParams{
				PathID: strings.Join(segs[1:len(segs)-1], "/"), Thumbnail: segs[len(segs)-1],
			})
		}
	default:
		var actor chat.Actor
		if actor, err = h.authenticateWeb(r, false); err == nil {
			file, err = h.svc.GetUploadedFile(r.Context(), actor, chat.GetUploadedFileParams{PathID: rest})
		}
	}
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	defer file.Close()
	writeFileHeaders(w, file)
	info := file.Info()
	http.ServeContent(w, r, file.Name, info.ModTime, file)
}

// writeFileHeaders sets the headers of a served file: its type, inline or attachment
// disposition with its name, no sniffing, a sandboxing CSP, private caching (the URL of an
// upload never changes its bytes).
func writeFileHeaders(w http.ResponseWriter, f chat.UploadedFile) {
	hd := w.Header()
	hd.Set("Content-Type", f.ContentType)
	hd.Set("Content-Disposition", contentDisposition(f.Name, f.Inline))
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Security-Policy", uploadCSP)
	hd.Set("Cache-Control", "private, max-age=31536000, immutable")
}

// contentDisposition is RFC 6266's header: filename="..." for ASCII names (quotes and
// backslashes escaped), filename*=utf-8”... (RFC 8187) otherwise.
func contentDisposition(name string, inline bool) string {
	kind := "attachment"
	if inline {
		kind = "inline"
	}
	ascii := true
	for i := 0; i < len(name); i++ {
		if name[i] < 0x20 || name[i] >= 0x7f {
			ascii = false
			break
		}
	}
	if ascii {
		return kind + `; filename="` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(name) + `"`
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteString("%" + strings.ToUpper(strconv.FormatInt(int64(c)>>4, 16)) + strings.ToUpper(strconv.FormatInt(int64(c)&15, 16)))
	}
	return kind + "; filename*=utf-8''" + b.String()
}

// uploadAvatar serves POST /users/me/avatar: exactly one file.
func (h *Handler) uploadAvatar(r *request) (any, error) {
	body, err := openUploadBody(r, int64(uploads.MaxAvatarFileSizeMiB)<<20+uploadSlack)
	if err != nil {
		return nil, err
	}
	if body == nil {
		return nil, chat.ErrOneAvatar()
	}
	part, err := body.nextFile()
	if err != nil {
		return nil, err
	}
	if part == nil {
		return nil, chat.ErrOneAvatar()
	}
	return h.svc.UploadAvatar(r.ctx, r.actor, chat.UploadAvatarParams{Content: &soleFile{part: part, body: body, several: chat.ErrOneAvatar()}})
}

// deleteAvatar serves DELETE /users/me/avatar.
func (h *Handler) deleteAvatar(r *request) (any, error) {
	return h.svc.DeleteAvatar(r.ctx, r.actor)
}

// serveAvatar serves /user_avatars/{path}, avatars and custom emoji images (public, as
// Zulip's), and /avatar/{email_or_id}
// with an optional /medium (a redirect to the user's avatar, for signed-in callers).
func (h *Handler) serveAvatar(w http.ResponseWriter, r *http.Request, path string) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		writeMethodNotAllowed(w, []string{http.MethodGet, http.MethodHead})
		return
	}
	if rest, ok := strings.CutPrefix(path, "/user_avatars/"); ok {
		open := func() (chat.UploadedFile, error) {
			return h.svc.GetAvatarImage(r.Context(), chat.GetAvatarImageParams{Path: rest})
		}
		if strings.HasPrefix(rest, "exports/") { // a data export's tarball, for administrators
			open = func() (chat.UploadedFile, error) {
				actor, err := h.authenticateWeb(r, false)
				if err != nil {
					return chat.UploadedFile{}, err
				}
				return h.svc.GetRealmExportFile(r.Context(), actor, chat.GetRealmExportFileParams{Path: rest})
			}
		} else if strings.Contains(rest, "/emoji/") {
			open = func() (chat.UploadedFile, error) {
				return h.svc.GetCustomEmojiImage(r.Context(), chat.GetCustomEmojiImageParams{Path: rest})
			}
		}
		file, err := open()
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		defer file.Close()
		writeFileHeaders(w, file)
		w.Header().Set("Cache-Control", "public, max-age=86400") // the URL's version changes with the image
		if strings.HasPrefix(rest, "exports/") {
			w.Header().Set("Cache-Control", "private, no-store")
		}
		http.ServeContent(w, r, file.Name, file.Info().ModTime, file)
		return
	}
	rest := strings.TrimPrefix(path, "/avatar/")
	who, medium := strings.CutSuffix(rest, "/medium")
	actor, err := h.authenticateWeb(r, false)
	if err == nil {
		var url string
		if url, err = h.svc.GetAvatarURL(r.Context(), actor, chat.GetAvatarURLParams{UserIDOrEmail: who, Medium: medium}); err == nil {
			w.Header().Set("Cache-Control", "no-store")
			http.Redirect(w, r, url, http.StatusFound)
			return
		}
	}
	h.writeError(w, r, err)
}
