package httpapi

import (
	"crypto/rand"
	"crypto/subtle"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	chat "github.com/teamchat/chat"
)

// Web sessions follow Django's, which Zulip's web client and its clients' test suites use: the
// session id travels in the sessionid cookie, and requests that change something (any method
// but GET, HEAD, OPTIONS and TRACE) prove they come from a page of this server with Django's
// CSRF check: the csrftoken cookie matched by the X-CSRFToken header (or, for the login form,
// by its csrfmiddlewaretoken field).
const (
	sessionCookie = "sessionid"
	csrfCookie    = "csrftoken"
	csrfHeader    = "X-CSRFToken"
	csrfFormField = "csrfmiddlewaretoken"
	// csrfCookieAge is Django's CSRF_COOKIE_AGE: a year (52 weeks).
	csrfCookieAge = 52 * 7 * 24 * 60 * 60
	// csrfSecretLength is the length of the secret the cookie carries; a token may also come
	// masked, twice as long.
	csrfSecretLength = 32
	csrfChars        = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
)

// Django's reasons for refusing a request (django/middleware/csrf.py), which Zulip puts after
// "CSRF error: ".
const (
	reasonBadOrigin       = "Origin checking failed - %s does not match any trusted origins."
	reasonNoReferer       = "Referer checking failed - no Referer."
	reasonBadReferer      = "Referer checking failed - %s does not match any trusted origins."
	reasonMalformedRefer  = "Referer checking failed - Referer is malformed."
	reasonInsecureReferer = "Referer checking failed - Referer is insecure while host is secure."
	reasonNoCSRFCookie    = "CSRF cookie not set."
	reasonTokenMissing    = "CSRF token missing."
	reasonIncorrectLength = "has incorrect length"
	reasonInvalidChars    = "has invalid characters"
)

// csrfSafe reports the methods Django's CSRF check lets through (RFC 9110's safe methods).
func csrfSafe(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return true
	}
	return false
}

// csrfFailure is Zulip's answer to a refused /json request: 403 CSRF_FAILED with Django's
// reason, in the message and on its own.
func csrfFailure(reason string) *chat.Error {
	return (&chat.Error{Code: chat.CodeCSRFFailed, Msg: "CSRF error: " + reason}).With("reason", reason)
}

// csrfReason runs Django's CSRF check of an unsafe request and returns why it fails, "" when
// it passes. formToken is the csrfmiddlewaretoken field of a form post ("" for none); without
// it the token comes from the X-CSRFToken header.
//
// One difference from Django: the Origin header is compared with the request's host whatever
// the scheme, since behind a TLS-terminating proxy the server cannot tell https from http; an
// http page of the same host is trusted as much as the https one.
func csrfReason(r *http.Request, formToken string) string {
	if origin := r.Header.Get("Origin"); origin != "" {
		if !sameHost(origin, r.Host) {
			return fmt.Sprintf(reasonBadOrigin, origin)
		}
	} else if r.TLS != nil {
		if reason := refererReason(r); reason != "" {
			return reason
		}
	}
	secret := ""
	if c, err := r.Cookie(csrfCookie); err == nil {
		if bad := tokenFormat(c.Value); bad != "" {
			return "CSRF cookie " + bad + "."
		}
		secret = unmaskToken(c.Value)
	}
	if secret == "" {
		return reasonNoCSRFCookie
	}
	token, source := formToken, "POST"
	if token == "" {
		values, ok := r.Header[http.CanonicalHeaderKey(csrfHeader)]
		if !ok || len(values) == 0 {
			return reasonTokenMissing
		}
		token, source = values[0], "the 'X-Csrftoken' HTTP header"
	}
	if bad := tokenFormat(token); bad != "" {
		return "CSRF token from " + source + " " + bad + "."
	}
	if subtle.ConstantTimeCompare([]byte(unmaskToken(token)), []byte(secret)) != 1 {
		return "CSRF token from " + source + " incorrect."
	}
	return ""
}

// refererReason is Django's Referer check of a request over TLS without an Origin header.
func refererReason(r *http.Request) string {
	ref := r.Header.Get("Referer")
	if ref == "" {
		return reasonNoReferer
	}
	u, err := url.Parse(ref)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return reasonMalformedRefer
	}
	if u.Scheme != "https" {
		return reasonInsecureReferer
	}
	if !strings.EqualFold(u.Host, r.Host) {
		return fmt.Sprintf(reasonBadReferer, ref)
	}
	return ""
}

// sameHost reports whether origin (scheme://host[:port]) names host over http or https.
func sameHost(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Path != "" || u.User != nil {
		return false
	}
	return u.Host != "" && strings.EqualFold(u.Host, host)
}

// tokenFormat is Django's _check_token_format: "" for a well-formed secret (32 characters)
// or masked token (64), else the reason.
func tokenFormat(token string) string {
	if len(token) != csrfSecretLength && len(token) != 2*csrfSecretLength {
		return reasonIncorrectLength
	}
	for i := 0; i < len(token); i++ {
		if strings.IndexByte(csrfChars, token[i]) < 0 {
			return reasonInvalidChars
		}
	}
	return ""
}

// unmaskToken returns the secret of a well-formed token: a masked token (64 characters, the
// mask then the cipher) gives cipher minus mask, character by character; a secret is itself.
func unmaskToken(token string) string {
	if len(token) != 2*csrfSecretLength {
		return token
	}
	mask, cipher := token[:csrfSecretLength], token[csrfSecretLength:]
	out := make([]byte, csrfSecretLength)
	n := len(csrfChars)
	for i := range out {
		x, y := strings.IndexByte(csrfChars, cipher[i]), strings.IndexByte(csrfChars, mask[i])
		out[i] = csrfChars[((x-y)%n+n)%n]
	}
	return string(out)
}

// newCSRFSecret is a fresh secret for the csrftoken cookie (190 random bits).
func newCSRFSecret() string { return randomChars(csrfSecretLength) }

// maskToken is Django's _mask_cipher_secret: a fresh random mask, then the secret plus the
// mask character by character, so that the token in a page differs at every load (no
// BREACH-style guessing from compressed pages).
func maskToken(secret string) string {
	mask := randomChars(csrfSecretLength)
	out := []byte(mask)
	n := len(csrfChars)
	for i := 0; i < len(secret); i++ {
		x, y := strings.IndexByte(csrfChars, secret[i]), strings.IndexByte(csrfChars, mask[i])
		out = append(out, csrfChars[(x+y)%n])
	}
	return string(out)
}

// randomChars is n characters of csrfChars from crypto/rand (rejection sampling: no bias).
func randomChars(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, 2*n)
	limit := byte(256 - 256%len(csrfChars)) // 248: a multiple of 62
	for len(out) < n {
		_, _ = rand.Read(buf) // crypto/rand.Read never fails (Go 1.24+)
		for _, b := range buf {
			if b < limit && len(out) < n {
				out = append(out, csrfChars[int(b)%len(csrfChars)])
			}
		}
	}
	return string(out)
}

// writeCSRFPage is the refusal of a form post that failed the CSRF check: Django's 403 page
// (Zulip answers forms, as opposed to /json/ requests, in HTML).
func writeCSRFPage(w http.ResponseWriter, reason string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusForbidden)
	_ = csrfPageTemplate.Execute(w, reason)
}

var csrfPageTemplate = template.Must(template.New("csrf").Parse(`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>403 Forbidden</title></head>
<body>
<h1>Forbidden <span>(403)</span></h1>
<p>CSRF verification failed. Request aborted.</p>
<p>{{.}}</p>
</body>
</html>
`))
