package httpapi

import "strconv"

// maxIDDigits bounds the digits of an id in the path: 18 digits always fit in an int64.
const maxIDDigits = 18

// parseID reads s as an id: digits only, at most maxIDDigits of them; ok is false for
// anything else (an email in a {user_id_or_email} segment, an empty string).
func parseID[T ~int64](s string) (id T, ok bool) {
	if s == "" || len(s) > maxIDDigits {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return T(n), err == nil
}

// pathID is the id in the path segment name, as a T. The router matches a segment whose
// name ends in _id only when parseID accepts it, and answers anything else as an unknown
// route (404, as Zulip does: Django's int path converter does not match), so a handler
// never sees a bad id; which id exists is the Service's to say.
func pathID[T ~int64](r *request, name string) T {
	id, _ := parseID[T](r.path[name])
	return id
}
