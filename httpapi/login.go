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

// loginTemplate is the login page: Zulip's form fields (username, password and the CSRF token)
// and, on a development server, a button per user to log in as (Zulip's dev login page). The
// page holds no script; its styles are in the page.
var loginTemplate = template.Must(template.New("login").Parse(`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Log in</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f5f6f8;color:#1f2329}
main{max-width:380px;margin:8vh auto;background:#fff;padding:24px 28px;border-radius:10px;box-shadow:0 4px 24px rgba(0,0,0,.08)}
h1{font-size:22px;margin:0 0 16px}h2{font-size:15px;margin:22px 0 8px}
label{display:block;margin:10px 0}input{display:block;width:100%;box-sizing:border-box;font:inherit;padding:7px 9px;margin-top:3px;border:1px solid #ccd;border-radius:6px}
button{font:inherit;padding:7px 14px;border-radius:6px;border:1px solid #3b5bdb;background:#3b5bdb;color:#fff;cursor:pointer}
.alert{color:#c92a2a}.dev form{display:inline}.dev button{background:#fff;color:#3b5bdb;margin:2px 2px 2px 0;padding:3px 9px;font-size:13px}
@media (prefers-color-scheme:dark){body{background:#1b1e23;color:#e6e8eb}main{background:#22262c}input{background:#1b1e23;color:inherit;border-color:#353b44}.dev button{background:#22262c;color:#91a7ff}}
</style></head>
<body>
<main>
<h1>Log in</h1>
<form method="post" action="/accounts/login/">
<input type="hidden" name="csrfmiddlewaretoken" value="{{.Token}}">
<input type="hidden" name="next" value="{{.Next}}">
{{if .Error}}<p class="alert alert-error" role="alert">{{.Error}}</p>
{{end}}<label>Email <input type="email" name="username" value="{{.Username}}" autocomplete="username" autofocus required></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit">Log in</button>
</form>
{{if .DevUsers}}<section class="dev" aria-label="Development users">
<h2>Development server: log in as</h2>
{{range .DevUsers}}<form method="post" action="/accounts/login/local/"><input type="hidden" name="direct_email" value="{{.}}"><input type="hidden" name="next" value="{{$.Next}}"><button type="submit">{{.}}</button></form>
{{end}}</section>
{{end}}</main>
</body>
</html>
`))

// loginCSP is the login page's Content-Security-Policy: no script at all, its own inline
// styles, forms posting to this server only, never framed (clickjacking).
const loginCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// maxDevUsers bounds the development users the login page lists.
const maxDevUsers = 60

type loginPageData struct {
	Token, Next, Username, Error string
	// DevUsers are the users a development server offers to log in as (administrators first).
	DevUsers []string
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
		Username: username, Password: r.PostForm.Get("password"), ClientAddress: clientAddress(r), UserAgent: r.UserAgent(),
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
	if dev, err := h.svc.DevListUsers(r.Context()); err == nil {
		for _, u := range append(dev.DirectAdmins, dev.DirectUsers...) {
			if len(d.DevUsers) == maxDevUsers {
				break
			}
			d.DevUsers = append(d.DevUsers, u.Email)
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", loginCSP)
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
	res, err := h.svc.DevFetchAPIKey(r.Context(), chat.DevFetchAPIKeyParams{
		Username: strings.TrimSpace(r.PostForm.Get("direct_email")), ClientAddress: clientAddress(r), UserAgent: r.UserAgent(),
	})
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
