package webtest

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
)

// TestCAFileVerifiesTheServer proves that a client trusting only the CA
// file reaches the site over verified TLS, and that Site serves its pages.
func TestCAFileVerifiesTheServer(t *testing.T) {
	s := New(t, Site())
	pem, err := os.ReadFile(s.CAFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatal("the CA file holds no certificate")
	}
	client := &http.Client{
		Transport:     &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	tests := []struct {
		path   string
		status int
		body   string
	}{
		{"/plain.txt", 200, PlainText},
		{"/page.html", 200, Page},
		{"/redirect", 302, ""},
		{"/missing", 404, "not here\n"},
	}
	for _, tt := range tests {
		resp, err := client.Get(s.URL + tt.path)
		if err != nil {
			t.Fatalf("GET %s: %v", tt.path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status || (tt.body != "" && string(body) != tt.body) {
			t.Errorf("GET %s = %d %q", tt.path, resp.StatusCode, body)
		}
	}
	if len(LongText()) != 330000 || !strings.HasPrefix(HeavyHTML(), "<html>") {
		t.Errorf("LongText is %d characters", len(LongText()))
	}
}
