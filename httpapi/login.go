package httpapi

import (
	"errors"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"strings"

	chat "github.com/teamchat/chat"
)

// The messages of the login form, as Zulip's OurAuthenticationForm words them.
const (
	msgInvalidLogin     = "Please enter a correct email and password. Note that both fields may be case-sensitive."
	msgLoginRateLimited = "You're making too many attempts to sign in. Try again in %d seconds or contact your organization administrator for help."
	msgLoginDeactivated = "Your account %s has been deactivated. Please contact your organization administrator to reactivate it."
)

// loginTemplate is the login page: Zulip's form fields (username, password and the CSRF token),
// nothing more.
var loginTemplate = template.Must(template.New("login").Parse(`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Log in</title></head>
<body>
<form method="post" action="/accounts/login/">
<input type="hidden" name="csrfmiddlewaretoken" value="{{.Token}}">
<input type="hidden" name="next" value="{{.Next}}">
{{if .Error}}<p class="alert alert-error" role="alert">{{.Error}}</p>
{{end}}<label>Email <input type="email" name="username" value="{{.Username}}" autofocus required></label>
<label>Password <input type="password" name="password" required></label>
<button type="submit">Log in</button>
</form>
</body>
</html>
`))

type loginPageData struct {
	Token, Next, Username, Error string
}

// serveLogin serves the login page (GET /login/, /accounts/login/) and the password login
// (POST /accounts/login/, Zulip's form login): the CSRF check of every form post, then
// StartSessionWithPassword; success sets the session cookies and redirects to next (a path of
// this server, "/" by default), failure shows the form again with Zulip's message.
func (h *Handler) serveLogin(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		h.writeLoginPage(w, r, http.StatusOK, loginPageData{Next: safeNext(r.URL.Query().Get("next"))})
		return
	case http.MethodPost:
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	if !h.parseForm(w, r) {
		return
	}
	if reason := csrfReason(r, r.PostForm.Get(csrfFormField)); reason != "" {
		writeCSRFPage(w, reason)
		return
	}
	username, next := strings.TrimSpace(r.PostForm.Get("username")), safeNext(r.Form.Get("next"))
	sess, err := h.svc.StartSessionWithPassword(r.Context(), chat.FetchAPIKeyParams{
		Username: username, Password: r.PostForm.Get("password"), ClientAddress: clientAddress(r),
	})
	if err != nil {
		msg, ok := loginFailure(err, username)
		if !ok {
			h.writeFormError(w, r, err)
			return
		}
		h.writeLoginPage(w, r, http.StatusOK, loginPageData{Next: next, Username: username, Error: msg})
		return
	}
	for _, c := range h.sessionCookies(r, sess) {
		http.SetCookie(w, c)
	}
	http.Redirect(w, r, next, http.StatusFound)
}

// loginFailure is the message the login form shows for a refused login; ok is false for a
// failure of the server.
func loginFailure(err error, username string) (string, bool) {
	var e *chat.Error
	if !errors.As(err, &e) || e.Code == chat.CodeInternal {
		return "", false
	}
	switch e.Code {
	case chat.CodeAuthenticationFailed, chat.CodeBadRequest:
		return msgInvalidLogin, true
	case chat.CodeRateLimitHit:
		secs, _ := e.Extra["retry-after"].(float64)
		return fmt.Sprintf(msgLoginRateLimited, int(math.Ceil(secs))), true
	case chat.CodeUserDeactivated:
		return fmt.Sprintf(msgLoginDeactivated, username), true
	}
	return e.Msg, true
}

// writeLoginPage writes the login form, with the browser's CSRF secret masked in it (a new
// secret, and its cookie, when the browser has none).
func (h *Handler) writeLoginPage(w http.ResponseWriter, r *http.Request, status int, d loginPageData) {
	secret := ""
	if c, err := r.Cookie(csrfCookie); err == nil && tokenFormat(c.Value) == "" {
		secret = unmaskToken(c.Value)
	} else {
		secret = newCSRFSecret()
		http.SetCookie(w, h.csrfCookie(r, secret))
	}
	d.Token = maskToken(secret)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_ = loginTemplate.Execute(w, d)
	}
}

// safeNext is the redirect target after a login: a path of this server, else "/" (Django's
// url_has_allowed_host_and_scheme, for relative URLs only).
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.ContainsAny(next, "\\\r\n\t") {
		return "/"
	}
	return next
}

// serveDevLogin serves POST /accounts/login/local/ (Zulip's dev_direct_login, development
// servers only, without CSRF check as Zulip's): the user of direct_email is logged in and
// redirected to next.
func (h *Handler) serveDevLogin(w http.ResponseWriter, r *http.Request) {
	if !h.formPost(w, r) {
		return
	}
	res, err := h.svc.DevFetchAPIKey(r.Context(), chat.DevFetchAPIKeyParams{Username: strings.TrimSpace(r.PostForm.Get("direct_email"))})
	var sess chat.Session
	if err == nil {
		sess, err = h.svc.StartSession(r.Context(), chat.Actor{UserID: res.UserID})
	}
	if err != nil {
		h.writeFormError(w, r, err)
		return
	}
	for _, c := range h.sessionCookies(r, sess) {
		http.SetCookie(w, c)
	}
	http.Redirect(w, r, safeNext(r.Form.Get("next")), http.StatusFound)
}

// writeFormError answers a form post the Service refused with a page saying why (Zulip's
// config_error pages), or a server failure with a logged 500.
func (h *Handler) writeFormError(w http.ResponseWriter, r *http.Request, err error) {
	var e *chat.Error
	if !errors.As(err, &e) || e.Code == chat.CodeInternal {
		h.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		http.Error(w, "Internal server error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(e.HTTPStatus())
	_ = messagePageTemplate.Execute(w, e.Msg)
}

var messagePageTemplate = template.Must(template.New("message").Parse(`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Log in</title></head>
<body>
<p>{{.}}</p>
</body>
</html>
`))

// formPost answers a request to a form's action that is not a POST (405) or whose form does
// not parse (400), and reports whether r.PostForm is ready.
func (h *Handler) formPost(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		w.WriteHeader(http.StatusMethodNotAllowed)
		return false
	}
	return h.parseForm(w, r)
}

// parseForm reads the form of r, its body bounded by MaxBodyBytes, and answers 400 when it
// does not parse; it reports whether r.PostForm is ready.
func (h *Handler) parseForm(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "Bad Request", http.StatusBadRequest)
		return false
	}
	return true
}
