// Package webtest serves web pages to tests of the web tools: a real HTTPS
// server on 127.0.0.1 whose certificate a test CA signs, written to a PEM
// file that a client trusts through SSL_CERT_FILE (Go's crypto/x509 reads it
// on Linux; Node and Bun read NODE_EXTRA_CA_CERTS), and Site, the pages the
// golden files of Claude Code's WebFetch were recorded from.
//
// Every server of a process has the same certificate, so a test binary can
// point SSL_CERT_FILE at WriteCA's file once, before its first TLS
// connection (Go reads the system roots once), and trust all its servers.
package webtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is a running HTTPS server.
type Server struct {
	// URL is "https://127.0.0.1:PORT"; Host is "127.0.0.1:PORT".
	URL, Host string
	// CAFile is the PEM file of the CA that signed the server's certificate.
	CAFile string
	ts     *httptest.Server
}

// New starts a server of handler for a test, its CA file in a temporary
// folder, and closes it when the test ends.
func New(t testing.TB, handler http.Handler) *Server {
	t.Helper()
	s, err := Start(handler, t.TempDir())
	if err != nil {
		t.Fatalf("webtest: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// Start starts a server of handler on a free port of 127.0.0.1 and writes
// its CA to dir/ca.pem, for use outside tests.
func Start(handler http.Handler, dir string) (*Server, error) {
	caFile, err := WriteCA(dir)
	if err != nil {
		return nil, err
	}
	ts := httptest.NewUnstartedServer(handler)
	ts.TLS = &tls.Config{Certificates: []tls.Certificate{shared.cert}}
	ts.StartTLS()
	return &Server{URL: ts.URL, Host: ts.Listener.Addr().String(), CAFile: caFile, ts: ts}, nil
}

// shared is the process's certificate, made on first use.
var shared struct {
	once sync.Once
	pem  []byte
	cert tls.Certificate
	err  error
}

// WriteCA writes the CA of this process's servers to dir/ca.pem and returns its path.
func WriteCA(dir string) (string, error) {
	shared.once.Do(func() { shared.pem, shared.cert, shared.err = newCertificate() })
	if shared.err != nil {
		return "", shared.err
	}
	path := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(path, shared.pem, 0o644); err != nil {
		return "", fmt.Errorf("write the test CA: %w", err)
	}
	return path, nil
}

// Close stops the server.
func (s *Server) Close() { s.ts.Close() }

// newCertificate makes a self-signed CA certificate that also serves
// 127.0.0.1, ::1 and localhost, good for a day.
func newCertificate() ([]byte, tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: "mini-claude test CA"},
		NotBefore:    time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true,
		KeyUsage:    x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:    []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, tls.Certificate{}, fmt.Errorf("make the test certificate: %w", err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, tls.Certificate{}, err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	cert, err := tls.X509KeyPair(certPEM, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}))
	return certPEM, cert, err
}

// Page is the HTML page of Site's /page.html: a head with a title, a style
// sheet and a script, a nav bar, then a heading, a paragraph with bold text
// and a link, a list, a code block and a table.
const Page = `<!DOCTYPE html><html><head><title>Release notes</title><style>body{color:red}</style>` +
	`<script>var tracking = 1;</script></head><body><nav><a href="/">Home</a> | <a href="/docs">Docs</a></nav>` +
	`<h1>Release notes</h1><p>Version 2 adds <b>generics</b> and <a href="https://example.com/spec">a new spec</a>.</p>` +
	`<ul><li>faster builds</li><li>smaller binaries</li></ul><pre><code>go test ./...</code></pre>` +
	`<table><tr><th>version</th><th>date</th></tr><tr><td>2.0</td><td>2026-01-05</td></tr></table></body></html>`

// PlainText is the body of Site's /plain.txt.
const PlainText = "plain text line 1\nline 2\n"

// LongText is the body of Site's /long.txt: 30,000 numbered lines, 330,000
// characters, more than one WebFetch call reads.
func LongText() string {
	var b strings.Builder
	for i := range 30000 {
		fmt.Fprintf(&b, "line %05d\n", i)
	}
	return b.String()
}

// HugeSize is the size of Site's /huge.txt: 12 MiB, above WebFetch's download cap.
const HugeSize = 12 << 20

// HeavyHTML is Site's /heavy.html: a paragraph, a script of 1.2 MB, and a
// paragraph past the first megabyte, which WebFetch does not convert.
func HeavyHTML() string {
	return "<html><body><p>Start of the page.</p><script>" + strings.Repeat("x", 1_200_000) +
		"</script><p>End of the page.</p></body></html>"
}

// RedirectTarget is where Site's /redirect sends a client: another host.
const RedirectTarget = "https://other.example/landing"

// Site returns the pages of the recorded WebFetch scenarios:
//
//	/page.html   Page, text/html
//	/plain.txt   PlainText, text/plain
//	/long.txt    LongText(), text/plain
//	/huge.txt    HugeSize bytes, text/plain
//	/heavy.html  HeavyHTML(), text/html
//	/redirect    302 to RedirectTarget, another host
//	/moved       301 to /plain.txt on the same host
//	/missing     404
func Site() http.Handler {
	mux := http.NewServeMux()
	text := func(contentType, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", contentType)
			fmt.Fprint(w, body)
		}
	}
	mux.HandleFunc("/page.html", text("text/html; charset=utf-8", Page))
	mux.HandleFunc("/plain.txt", text("text/plain; charset=utf-8", PlainText))
	mux.HandleFunc("/long.txt", text("text/plain; charset=utf-8", LongText()))
	mux.HandleFunc("/heavy.html", text("text/html; charset=utf-8", HeavyHTML()))
	mux.HandleFunc("/huge.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		line := strings.Repeat("y", 1023) + "\n"
		for range HugeSize / len(line) {
			if _, err := fmt.Fprint(w, line); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, RedirectTarget, http.StatusFound)
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/plain.txt", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "not here", http.StatusNotFound)
	})
	return mux
}
