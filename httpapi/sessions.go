package httpapi

import (
	"errors"
	"net/http"
	"strings"
	"time"

	chat "github.com/teamchat/chat"
)

// authenticateWeb authenticates a /json/ request as Zulip's rest_dispatch does: a live session
// first (a request that changes something must then pass the CSRF check), else HTTP Basic
// credentials, else nobody: optional routes run as the anonymous actor, the others answer 401
// asking for a session.
func (h *Handler) authenticateWeb(r *http.Request, optional bool) (chat.Actor, error) {
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		actor, err := h.svc.AuthenticateSession(r.Context(), c.Value)
		switch {
		case err == nil:
			if !csrfSafe(r.Method) {
				if reason := csrfReason(r, ""); reason != "" {
					return chat.Actor{}, csrfFailure(reason)
				}
			}
			return actor, nil
		case !errors.Is(err, chat.ErrNotLoggedIn()):
			return chat.Actor{}, err
		}
	}
	return h.authenticate(r, optional)
}

// secureCookies reports whether cookies get the Secure attribute: over TLS, or always with
// Options.SecureCookies (behind a TLS-terminating proxy).
func (h *Handler) secureCookies(r *http.Request) bool { return r.TLS != nil || h.opts.SecureCookies }

// sessionCookies are the cookies of a new session: sessionid, and a fresh csrftoken (Django
// rotates the CSRF secret at every login). Their attributes are Django's defaults as Zulip
// sets them: both Lax, the session one HttpOnly, the CSRF one readable by the page's scripts.
func (h *Handler) sessionCookies(r *http.Request, s chat.Session) []*http.Cookie {
	return []*http.Cookie{
		{Name: sessionCookie, Value: s.ID, Path: "/", MaxAge: int(s.Age / time.Second), Expires: s.Expires.UTC(),
			HttpOnly: true, Secure: h.secureCookies(r), SameSite: http.SameSiteLaxMode},
		h.csrfCookie(r, newCSRFSecret()),
	}
}

// csrfCookie carries a CSRF secret for Django's CSRF_COOKIE_AGE.
func (h *Handler) csrfCookie(r *http.Request, secret string) *http.Cookie {
	return &http.Cookie{Name: csrfCookie, Value: secret, Path: "/", MaxAge: csrfCookieAge,
		Secure: h.secureCookies(r), SameSite: http.SameSiteLaxMode}
}

// expiredSessionCookie removes the session cookie from the browser (logout), as Django's
// delete_cookie does.
func (h *Handler) expiredSessionCookie(r *http.Request) *http.Cookie {
	return &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, Expires: time.Unix(0, 0).UTC(),
		HttpOnly: true, Secure: h.secureCookies(r), SameSite: http.SameSiteLaxMode}
}

// serveLogout serves POST /accounts/logout/ (Zulip's logout_view): the CSRF check of every
// form post, the end of the session, the session cookie removed and a redirect to the login
// page.
func (h *Handler) serveLogout(w http.ResponseWriter, r *http.Request) {
	if !h.formPost(w, r) {
		return
	}
	if reason := csrfReason(r, r.PostForm.Get(csrfFormField)); reason != "" {
		writeCSRFPage(w, reason)
		return
	}
	if c, err := r.Cookie(sessionCookie); err == nil {
		if _, err := h.svc.EndSession(r.Context(), c.Value); err != nil {
			h.writeError(w, r, err)
			return
		}
	}
	http.SetCookie(w, h.expiredSessionCookie(r))
	http.Redirect(w, r, loginPage, http.StatusFound)
}

// loginPage is where Zulip sends a logged-out browser (LOGIN_URL).
const loginPage = "/login/"

// The two trees of the API: /api/v1/ for API clients (HTTP Basic credentials) and /json/ for
// the web (a session, or HTTP Basic credentials as Zulip also accepts there), with the same
// routes and handlers.
const (
	apiPrefix = "/api/v1/"
	webPrefix = "/json/"
)

// apiPath splits a request path into its tree and its route path.
func apiPath(path string) (prefix, rest string, ok bool) {
	for _, prefix := range []string{apiPrefix, webPrefix} {
		if rest, ok := strings.CutPrefix(path, prefix); ok {
			return prefix, rest, true
		}
	}
	return "", "", false
}

// servePage serves the pages outside the API: the invitation page, the login page and form
// (login.go), the development login, the logout form and the BigBlueButton join link;
// anything else is 404. It returns the route it matched (see RequestObserver).
func (h *Handler) servePage(w http.ResponseWriter, r *http.Request, path string) string {
	switch path {
	case "/accounts/logout/":
		h.serveLogout(w, r)
		return path
	case bigBlueButtonJoinPath:
		h.serveBigBlueButtonJoin(w, r)
		return path
	case "/login/", "/accounts/login/":
		h.serveLogin(w, r)
		return path
	case "/accounts/login/local/":
		h.serveDevLogin(w, r)
		return path
	}
	if key, ok := strings.CutPrefix(path, "/join/"); ok && key != "" && !strings.Contains(strings.TrimSuffix(key, "/"), "/") {
		h.serveJoin(w, r, strings.TrimSuffix(key, "/"))
		return "/join/{key}/"
	}
	writeNotFound(w)
	return unmatchedRoute
}

// wwwAuthenticate is the challenge of a 401: Zulip asks /json/ requests without credentials
// for a session, and everything else for HTTP Basic credentials.
func wwwAuthenticate(r *http.Request, e *chat.Error) string {
	if strings.HasPrefix(cleanPath(r.URL.Path), webPrefix) && errors.Is(e, chat.ErrNotLoggedIn()) {
		return `Session realm="zulip"`
	}
	return `Basic realm="zulip"`
}
