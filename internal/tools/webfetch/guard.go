package webfetch

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
)

// refusedError is a connection WebFetch would not make: to an address of
// the user's own machine or network.
type refusedError struct {
	host string
	addr netip.Addr
}

func (e *refusedError) Error() string {
	return fmt.Sprintf("WebFetch did not connect to %s: %s is %s, and WebFetch refuses loopback, link-local and private "+
		"addresses unless a permission rule names the host, so that a page or a prompt cannot reach into the user's "+
		"machine or network. If the user wants this host fetched, they can add the allow rule WebFetch(domain:%s).",
		e.host, e.addr, kindOf(e.addr), e.host)
}

// cgnat is the shared address space of carrier-grade NAT, private in practice.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// internal reports whether a connection to addr would stay on the user's
// machine or network: loopback, link-local (cloud metadata services among
// them), private, shared (CGNAT) or unspecified addresses.
func internal(addr netip.Addr) bool {
	addr = addr.Unmap()
	return addr.IsLoopback() || addr.IsLinkLocalUnicast() || addr.IsLinkLocalMulticast() ||
		addr.IsInterfaceLocalMulticast() || addr.IsPrivate() || addr.IsUnspecified() || cgnat.Contains(addr)
}

// kindOf names the kind of an internal address, for the refusal.
func kindOf(addr netip.Addr) string {
	addr = addr.Unmap()
	switch {
	case addr.IsLoopback():
		return "a loopback address"
	case addr.IsLinkLocalUnicast(), addr.IsLinkLocalMulticast():
		return "a link-local address"
	case addr.IsUnspecified():
		return "the unspecified address"
	}
	return "a private address"
}

// guardedClient returns the HTTP client of one fetch of host: it connects
// directly (no proxy), follows no redirect itself, and refuses at connection
// time, once DNS has answered, any internal address unless allowInternal,
// so a public name that resolves to 127.0.0.1 is caught as well.
func guardedClient(host string, allowInternal bool) *http.Client {
	dialer := &net.Dialer{Timeout: fetchTimeout, Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("WebFetch did not connect to %s: not an IP address and port", address)
		}
		if !allowInternal && internal(ap.Addr()) {
			return &refusedError{host: host, addr: ap.Addr()}
		}
		return nil
	}}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   fetchTimeout,
		ResponseHeaderTimeout: fetchTimeout,
		DisableKeepAlives:     true,
	}
	return &http.Client{
		Transport:     transport,
		Timeout:       fetchTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
