package webfetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"time"
)

// The limits of one fetch, Claude Code's.
const (
	// maxURLLength is the longest URL fetched.
	maxURLLength = 2000
	// maxDownload is the most bytes of a body read: about 10 MB.
	maxDownload = 10 << 20
	// maxRedirects is how many same-host redirects one fetch follows.
	maxRedirects = 10
	// fetchTimeout bounds each request, headers and body.
	fetchTimeout = 60 * time.Second
)

// userAgent is sent with every request.
const userAgent = "mini-claude (WebFetch; +https://github.com/mini-claude/mini-claude)"

// response is what a fetch got: a page, a redirect to another host, or an
// HTTP error status. Exactly one of body, redirect and failed is set.
type response struct {
	// url is the URL of the last request: the upgraded one, after same-host redirects.
	url         string
	code        int
	contentType string
	body        []byte
	// redirect is the Location of a redirect to another host, not followed.
	redirect string
	// failed is set for a status that is neither a success nor a redirect;
	// retryAfter is its Retry-After header when that is a number of seconds.
	failed     bool
	retryAfter string
}

// checkURL refuses a URL Claude Code does not fetch: too long, with a user
// name or password, or with a host name without a dot (localhost, intranet,
// an IPv6 address).
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || len(raw) > maxURLLength || u.User != nil || u.Hostname() == "" {
		return errors.New("Invalid URL")
	}
	if len(strings.Split(u.Hostname(), ".")) < 2 {
		return errors.New("WebFetch cannot fetch localhost or other hostnames without a dot. To reach a local server, use Bash with curl instead.")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return errors.New("WebFetch fetches only http and https addresses.")
	}
	return nil
}

// upgrade returns the URL with http replaced by https.
func upgrade(raw string) string {
	if len(raw) >= 7 && strings.EqualFold(raw[:7], "http://") {
		return "https://" + raw[7:]
	}
	return raw
}

// download fetches raw over https, following redirects that stay on the
// same host and reporting the others; client is a guarded client.
func download(ctx context.Context, client *http.Client, raw string) (*response, error) {
	current := upgrade(raw)
	for hops := 0; ; hops++ {
		if hops > maxRedirects {
			return nil, fmt.Errorf("Too many redirects (exceeded %d)", maxRedirects)
		}
		resp, err := get(ctx, client, current)
		if err != nil {
			return nil, err
		}
		switch code := resp.StatusCode; {
		case code >= 200 && code < 300:
			return readBody(resp, current)
		case isRedirect(code):
			resp.Body.Close()
			next, ok := location(resp, current)
			if !ok {
				return &response{url: current, code: code, failed: true}, nil
			}
			if !sameSite(current, next) {
				return &response{url: current, code: code, redirect: next}, nil
			}
			current = next
		default:
			resp.Body.Close()
			r := &response{url: current, code: code, failed: true}
			if ra := resp.Header.Get("Retry-After"); len(ra) > 0 && len(ra) <= 6 && strings.Trim(ra, "0123456789") == "" {
				r.retryAfter = ra
			}
			return r, nil
		}
	}
}

// get sends one GET of u, the body left to the caller.
func get(ctx context.Context, client *http.Client, u string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, errors.New("Invalid URL")
	}
	req.Header.Set("Accept", "text/markdown, text/html, */*")
	req.Header.Set("User-Agent", userAgent)
	resp, err := client.Do(req)
	if err != nil {
		return nil, describe(err)
	}
	return resp, nil
}

// readBody reads a successful response's body, refusing one larger than maxDownload.
func readBody(resp *http.Response, u string) (*response, error) {
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDownload+1))
	if err != nil {
		return nil, describe(err)
	}
	if len(body) > maxDownload {
		return nil, fmt.Errorf("maxContentLength size of %d exceeded", maxDownload)
	}
	return &response{url: u, code: resp.StatusCode, contentType: resp.Header.Get("Content-Type"), body: body}, nil
}

func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// location resolves a redirect's Location against the URL that sent it.
func location(resp *http.Response, current string) (string, bool) {
	loc := strings.TrimSpace(resp.Header.Get("Location"))
	if loc == "" {
		return "", false
	}
	base, err := url.Parse(current)
	if err != nil {
		return "", false
	}
	next, err := base.Parse(loc)
	if err != nil {
		return "", false
	}
	return next.String(), true
}

// sameSite reports whether a redirect from one URL to the next may be
// followed, as Claude Code decides: the same scheme and port, no user name
// or password, the same host but for a leading "www.", and not out of the
// part of a preapproved host that is preapproved.
func sameSite(from, to string) bool {
	a, err1 := url.Parse(from)
	b, err2 := url.Parse(to)
	if err1 != nil || err2 != nil || a.Scheme != b.Scheme || a.Port() != b.Port() || b.User != nil {
		return false
	}
	strip := func(h string) string { return strings.TrimPrefix(strings.ToLower(h), "www.") }
	if strip(a.Hostname()) != strip(b.Hostname()) {
		return false
	}
	return !preapproved(a.Hostname(), a.EscapedPath()) || preapproved(b.Hostname(), b.EscapedPath())
}

// statusText is the reason phrase of an HTTP status.
func statusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return t
	}
	return "Unknown Status"
}

// describe turns a failed request into the message the model reads, in the
// words Claude Code's HTTP client uses for the common failures.
func describe(err error) error {
	var refused *refusedError
	if errors.As(err, &refused) {
		return refused
	}
	var op *net.OpError
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED) && errors.As(err, &op) && op.Addr != nil:
		return fmt.Errorf("connect ECONNREFUSED %s", op.Addr)
	case errors.Is(err, syscall.ECONNRESET):
		return errors.New("socket hang up")
	case errors.As(err, &dns) && dns.IsNotFound:
		return fmt.Errorf("getaddrinfo ENOTFOUND %s", dns.Name)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Errorf("timeout of %dms exceeded", fetchTimeout.Milliseconds())
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// retryAfterLine is the Retry-After line of an HTTP error's text, if any.
func retryAfterLine(r *response) string {
	if r.retryAfter == "" {
		return ""
	}
	return "\nRetry-After: " + r.retryAfter
}
