package httpapi

import (
	"html/template"
	"net/http"
	"strings"

	chat "github.com/teamchat/chat"
)

// joinPage is the sign-up page an invitation link ({realm_url}/join/{key}/) opens: the
// invitee's name and password (and, for a reusable link, email), posted back to the same URL.
var joinPage = template.Must(template.New("join").Parse(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Join</title></head><body>
{{if .Done}}<p>Your account {{.Email}} is ready. Log in with your email and password.</p>
{{else}}<h1>Create your account</h1>
{{if .Error}}<p role="alert">{{.Error}}</p>{{end}}
<form method="post">
<input type="hidden" name="csrfmiddlewaretoken" value="{{.Token}}">
{{if .AskEmail}}<p><label>Email <input name="email" type="email" value="{{.Email}}" required></label></p>{{end}}
<p><label>Full name <input name="full_name" value="{{.FullName}}" required></label></p>
<p><label>Password <input name="password" type="password" required></label></p>
<p><button type="submit">Sign up</button></p>
</form>{{end}}
</body></html>
`))

type joinView struct {
	Done, AskEmail                bool
	Email, FullName, Error, Token string
}

// serveJoin serves the page of an invitation link: GET shows the form, POST creates the
// account through chat.Service.RedeemInviteLink. Anonymous requests count against the
// per-address API limit. Like Zulip's registration form (a Django view without csrf_exempt),
// the post passes Django's CSRF check: the csrfmiddlewaretoken field the form carries must
// match the csrftoken cookie the page set, and a cross-site Origin is refused, with Django's
// 403 page and no account created.
func (h *Handler) serveJoin(w http.ResponseWriter, r *http.Request, key string) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		writeMethodNotAllowed(w, []string{http.MethodGet, http.MethodPost})
		return
	}
	limit, err := h.svc.CountAPIRequest(chat.Actor{}, clientAddress(r))
	setRateLimitHeaders(w, limit)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	v := joinView{AskEmail: true, Token: h.formToken(w, r)}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes)
		if err := r.ParseForm(); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			v.Error = "The form could not be read."
			_ = joinPage.Execute(w, v)
			return
		}
		if reason := csrfReason(r, r.PostForm.Get(csrfFormField)); reason != "" {
			writeCSRFPage(w, reason)
			return
		}
		v.Email, v.FullName = strings.TrimSpace(r.PostForm.Get("email")), r.PostForm.Get("full_name")
		res, err := h.svc.RedeemInviteLink(r.Context(), chat.RedeemInviteLinkParams{Key: key, Email: v.Email,
			FullName: v.FullName, Password: r.PostForm.Get("password")})
		if err == nil {
			v.Done, v.Email = true, res.Email
			_ = joinPage.Execute(w, v)
			return
		}
		e := chat.AsError(err)
		w.WriteHeader(e.HTTPStatus())
		v.Error = e.Msg
	}
	_ = joinPage.Execute(w, v)
}

// formToken is the csrfmiddlewaretoken of a form page: the secret of the request's csrftoken
// cookie, masked afresh, or a new secret whose cookie it sets (Django's get_token).
func (h *Handler) formToken(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(csrfCookie); err == nil && tokenFormat(c.Value) == "" {
		return maskToken(unmaskToken(c.Value))
	}
	secret := newCSRFSecret()
	http.SetCookie(w, h.csrfCookie(r, secret))
	return maskToken(secret)
}
