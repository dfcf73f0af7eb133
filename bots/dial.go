package bots

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// PrivateTargetError is a connection an outgoing webhook was refused: its address (after DNS
// resolution) is not a public one. Zulip's smokescreen proxy answers such requests with 407.
type PrivateTargetError struct {
	Addr netip.Addr
}

func (e *PrivateTargetError) Error() string {
	return fmt.Sprintf("bots: %s is a private or disallowed address", e.Addr)
}

// nonPublic are the ranges, beyond those netip classifies, that no webhook may reach: this
// network, shared address space (CGNAT), IETF protocol assignments, documentation and
// benchmarking ranges, reserved and broadcast addresses, NAT64 and 6to4 (which embed IPv4
// addresses), the IPv6 discard and documentation prefixes.
var nonPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("100::/64"),
	netip.MustParsePrefix("2001:db8::/32"),
	netip.MustParsePrefix("2002::/16"),
}

// PublicAddr reports whether an outgoing webhook may connect to a: not loopback, private,
// link-local, multicast, unspecified or any of the other non-public ranges (IPv4-mapped IPv6
// addresses are judged as their IPv4 address).
func PublicAddr(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// refusePrivate is the dialer's Control: it runs for every connection attempt with the
// address actually dialled, after DNS resolution, so a name that resolves (or is rebound) to
// a private address is refused all the same.
func refusePrivate(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("bots: dialled address %q: %w", address, err)
	}
	if !PublicAddr(ap.Addr()) {
		return &PrivateTargetError{Addr: ap.Addr()}
	}
	return nil
}

// newClient is the HTTP client of outgoing webhooks: no proxy from the environment (a proxy
// would dial the target itself, past the guard), the guard on every dial unless private
// targets are allowed, and the call's timeout.
func newClient(cfg Config) *http.Client {
	d := &net.Dialer{Timeout: cfg.Timeout, KeepAlive: 30 * time.Second}
	if !cfg.AllowPrivateTargets {
		d.Control = refusePrivate
	}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           d.DialContext,
		TLSHandshakeTimeout:   cfg.Timeout,
		ResponseHeaderTimeout: cfg.Timeout,
		MaxIdleConns:          16,
		IdleConnTimeout:       90 * time.Second,
	}
	return &http.Client{Transport: tr, Timeout: cfg.Timeout, CheckRedirect: checkRedirect}
}

// errTooManyRedirects stops a call after 10 redirects (as Python's requests does, whose
// exception names the failure in Zulip's texts).
var errTooManyRedirects = errors.New("Exceeded 10 redirects.")

func checkRedirect(_ *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errTooManyRedirects
	}
	return nil
}
