package bots

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"
)

func TestPublicAddr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		addr string
		want bool
	}{
		{"8.8.8.8", true},
		{"93.184.216.34", true},
		{"2606:4700:4700::1111", true},
		{"127.0.0.1", false},
		{"127.5.6.7", false},
		{"::1", false},
		{"10.1.2.3", false},
		{"172.16.0.1", false},
		{"192.168.1.1", false},
		{"169.254.169.254", false}, // cloud metadata
		{"fe80::1", false},
		{"fc00::1", false},
		{"fd12:3456::1", false},
		{"0.0.0.0", false},
		{"::", false},
		{"100.64.0.1", false},
		{"224.0.0.1", false},
		{"255.255.255.255", false},
		{"::ffff:127.0.0.1", false}, // IPv4-mapped loopback
		{"::ffff:10.0.0.1", false},
		{"64:ff9b::a00:1", false}, // NAT64 of 10.0.0.1
		{"2002:a00:1::1", false},  // 6to4 of 10.0.0.1
		{"198.18.0.1", false},
		{"192.0.2.1", false},
	}
	for _, tt := range tests {
		if got := PublicAddr(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("PublicAddr(%s) = %v, want %v", tt.addr, got, tt.want)
		}
	}
}

// TestGuardRefusesAtDialTime: the guard judges the address actually dialled, after DNS
// resolution, so a name that resolves to loopback (as a rebound name would) is refused, and
// the server never sees the request.
func TestGuardRefusesAtDialTime(t *testing.T) {
	t.Parallel()
	hit := make(chan struct{}, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hit <- struct{}{} }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	for _, target := range []string{srv.URL, "http://localhost:" + port + "/"} {
		guarded := newClient(Config{Timeout: 2 * time.Second})
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, target, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = guarded.Do(req)
		var private *PrivateTargetError
		if !errors.As(err, &private) {
			t.Errorf("POST %s through the guard: err = %v, want a PrivateTargetError", target, err)
		}
		open := newClient(Config{Timeout: 2 * time.Second, AllowPrivateTargets: true})
		req, _ = http.NewRequestWithContext(context.Background(), http.MethodPost, target, nil)
		resp, err := open.Do(req)
		if err != nil {
			t.Fatalf("POST %s with private targets allowed: %v", target, err)
		}
		resp.Body.Close()
	}
	if n := len(hit); n != 2 {
		t.Errorf("the server got %d requests, want 2 (only those allowed)", n)
	}
}
