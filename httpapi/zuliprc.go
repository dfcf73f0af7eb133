package httpapi

import (
	"fmt"
	"strings"
)

// Zuliprc returns the text of a .zuliprc, the configuration file that Zulip clients read (the
// python `zulip` package, zulip-js, zulip-terminal): one [api] section with the user's email,
// API key and the server's base URL.
func Zuliprc(email, key, site string) string {
	var b strings.Builder
	b.WriteString("[api]\n")
	fmt.Fprintf(&b, "email=%s\n", email)
	fmt.Fprintf(&b, "key=%s\n", key)
	fmt.Fprintf(&b, "site=%s\n", site)
	return b.String()
}
