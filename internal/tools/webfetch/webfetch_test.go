package webfetch

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/tools/web"
	"github.com/mini-claude/mini-claude/internal/tools/web/webtest"
)

// TestResultsMatchClaudeCode replays Claude Code's recorded WebFetch calls:
// the same pages, the same result texts, errors where it failed, and the
// same side request to the small model.
func TestResultsMatchClaudeCode(t *testing.T) {
	tests := []struct {
		name string
		// frameOnly compares the side request around the page's text: the
		// markdown of HTML is html-to-markdown's, not turndown's.
		frameOnly bool
	}{
		{"html", true},
		{"plain_text", false},
		{"http_upgraded", false},
		{"redirect_same_host", false},
		{"redirect_other_host", false},
		{"not_found", false},
		{"invalid_url_credentials", false},
		{"dotless_host", false},
		{"refused", false},
		{"oversized", false},
		{"heavy_html", false},
		{"long_page", false},
		{"offset", false},
		{"offset_last_part", false},
		{"offset_past_end", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, web.Settings{})
			want := loadRecorded(t, tt.name, f.site.Host)
			input, _ := json.Marshal(want.Input)
			out, errText := f.call(t, string(input))
			got, isError := out.Result, errText != ""
			if isError {
				got = errText
			}
			if got != want.text(t) || isError != want.Result.IsError {
				t.Errorf("result (error %v):\n%s\nwant (error %v):\n%s", isError, got, want.Result.IsError, want.text(t))
			}
			side := f.sidePrompts()
			if len(side) != len(want.Side) {
				t.Fatalf("%d side requests, want %d", len(side), len(want.Side))
			}
			for i, w := range want.Side {
				wantText := w.Body.Messages[0].Text()
				if tt.frameOnly {
					side[i], wantText = frame(side[i]), frame(wantText)
				}
				if side[i] != wantText {
					t.Errorf("side request %d:\n%s\nwant:\n%s", i, side[i], wantText)
				}
			}
		})
	}
}

// frame is a side request's text with the page's own text left out.
func frame(s string) string {
	start := strings.Index(s, "---\n")
	end := strings.LastIndex(s, "\n---\n")
	if start < 0 || end < start {
		return s
	}
	return s[:start+4] + "<page>" + s[end:]
}

// TestHTMLBecomesMarkdownWithoutScriptsStylesOrNavigation proves the
// conversion of the recorded HTML page: text, links, lists, code and tables
// kept, script, style and nav dropped.
func TestHTMLBecomesMarkdownWithoutScriptsStylesOrNavigation(t *testing.T) {
	md, ok := pageText("text/html; charset=utf-8", []byte(webtest.Page))
	if !ok {
		t.Fatal("HTML is not text")
	}
	goldenfile.Check(t, "testdata/page.md", md)
	for _, gone := range []string{"tracking", "color:red", "Home", "Docs"} {
		if strings.Contains(md, gone) {
			t.Errorf("the markdown keeps %q:\n%s", gone, md)
		}
	}
}

// TestPrivateAddressesAreRefusedUnlessARuleNamesTheHost proves the check
// without a rule naming the host and with one.
func TestPrivateAddressesAreRefusedUnlessARuleNamesTheHost(t *testing.T) {
	f := newFixture(t, web.Settings{})
	f.env.HostNamed = nil
	_, errText := f.call(t, `{"url":"https://<host>/plain.txt","prompt":"p"}`)
	want := "WebFetch did not connect to 127.0.0.1: 127.0.0.1 is a loopback address, and WebFetch refuses loopback, " +
		"link-local and private addresses unless a permission rule names the host"
	if !strings.HasPrefix(errText, want) || !strings.HasSuffix(errText, "they can add the allow rule WebFetch(domain:127.0.0.1).") {
		t.Errorf("refusal %q", errText)
	}
	if n := len(f.model.Requests()); n != 0 {
		t.Errorf("%d side requests for a refused fetch", n)
	}
	f.env.HostNamed = func(h string) bool { return h == "127.0.0.1" }
	if out, errText := f.call(t, `{"url":"https://<host>/plain.txt","prompt":"p"}`); errText != "" || out.Result != sideAnswer {
		t.Errorf("with the rule: %q, %q", out.Result, errText)
	}
}

// TestNamesAreCheckedOnceResolved proves that the check runs at connection
// time, on the address DNS gave: a name that resolves to loopback is
// refused like the address itself.
func TestNamesAreCheckedOnceResolved(t *testing.T) {
	site := webtest.New(t, webtest.Site())
	port := site.Host[strings.LastIndex(site.Host, ":"):]
	_, err := guardedClient("localhost", false).Get("https://localhost" + port + "/plain.txt")
	if err == nil || !strings.Contains(describe(err).Error(), "WebFetch did not connect to localhost: 127.0.0.1 is a loopback address") {
		t.Errorf("err = %v", err)
	}
	resp, err := guardedClient("localhost", true).Get("https://localhost" + port + "/plain.txt")
	if err != nil {
		t.Fatalf("allowed: %v", err)
	}
	resp.Body.Close()
}

// TestInternalAddresses proves which addresses count as the user's own.
func TestInternalAddresses(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1": true, "10.1.2.3": true, "172.16.0.1": true, "192.168.1.1": true, "169.254.169.254": true,
		"100.64.0.1": true, "0.0.0.0": true, "::1": true, "fe80::1": true, "fd00::1": true, "::ffff:127.0.0.1": true,
		"8.8.8.8": false, "2606:4700::1111": false, "100.128.0.1": false,
	} {
		if got := internal(mustAddr(t, addr)); got != want {
			t.Errorf("internal(%s) = %v, want %v", addr, got, want)
		}
	}
}

// TestPagesAreCachedForFifteenMinutes proves that a second call within 15
// minutes reads the cache, also with another prompt, and that a later one
// fetches again.
func TestPagesAreCachedForFifteenMinutes(t *testing.T) {
	var hits atomic.Int32
	f := newFixture(t, web.Settings{})
	counted := webtest.New(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		webtest.Site().ServeHTTP(w, r)
	}))
	f.site = counted
	now := time.Now()
	cacheOf(f.env.Session).now = func() time.Time { return now }
	for _, prompt := range []string{"first", "second"} {
		if _, errText := f.call(t, `{"url":"https://<host>/plain.txt","prompt":"`+prompt+`"}`); errText != "" {
			t.Fatal(errText)
		}
	}
	if hits.Load() != 1 || len(f.model.Requests()) != 2 {
		t.Errorf("%d downloads and %d side requests, want 1 and 2", hits.Load(), len(f.model.Requests()))
	}
	now = now.Add(cacheTTL)
	f.call(t, `{"url":"https://<host>/plain.txt","prompt":"third"}`)
	if hits.Load() != 2 {
		t.Errorf("%d downloads after 15 minutes, want 2", hits.Load())
	}
}

// TestSkipSummaryReturnsThePageText proves the setting that leaves out the
// small model: the page's own text, marked as such, with the paging note.
func TestSkipSummaryReturnsThePageText(t *testing.T) {
	f := newFixture(t, web.Settings{SkipSummary: true})
	out, errText := f.call(t, `{"url":"https://<host>/plain.txt","prompt":"p"}`)
	if errText != "" || out.Result != "<fetched-web-content>\n"+webtest.PlainText+"\n</fetched-web-content>" {
		t.Errorf("result %q, %q", out.Result, errText)
	}
	out, _ = f.call(t, `{"url":"https://<host>/long.txt","prompt":"p","offset":250008}`)
	if !strings.HasPrefix(out.Result, "<fetched-web-content>\nline 22728\n") ||
		!strings.HasSuffix(out.Result, "</fetched-web-content>") {
		t.Errorf("last part %.80q…%q", out.Result, out.Result[len(out.Result)-60:])
	}
	out, _ = f.call(t, `{"url":"https://<host>/long.txt","prompt":"p"}`)
	if !strings.HasSuffix(out.Result, "[WebFetch note: this page's text is 330000 characters long and the text above covers only characters 0 to 100000; "+
		"the final 230000 were not read — to read on, call WebFetch again with the same url and offset: 100000.]") {
		t.Errorf("first part ends %q", out.Result[len(out.Result)-200:])
	}
	if n := len(f.model.Requests()); n != 0 {
		t.Errorf("%d side requests with the summary skipped", n)
	}
}

// TestFailuresAModelCanActOn proves the failures Claude Code's recordings
// do not cover: a body that is not text, a redirect loop, a scheme other
// than http(s), a URL that does not parse.
func TestFailuresAModelCanActOn(t *testing.T) {
	f := newFixture(t, web.Settings{})
	mux := http.NewServeMux()
	mux.HandleFunc("/image.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n"))
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	f.site = webtest.New(t, mux)
	tests := []struct{ input, want string }{
		{`{"url":"https://<host>/image.png","prompt":"p"}`, "WebFetch reads text and HTML pages; https://<host>/image.png is image/png (8 bytes)."},
		{`{"url":"https://<host>/loop","prompt":"p"}`, "Too many redirects (exceeded 10)"},
		{`{"url":"ftp://files.example.com/a","prompt":"p"}`, "WebFetch fetches only http and https addresses."},
		{`{"url":"not a url","prompt":"p"}`, `Error: Invalid URL "not a url". The URL provided could not be parsed.`},
	}
	for _, tt := range tests {
		_, errText := f.call(t, tt.input)
		if want := strings.ReplaceAll(tt.want, "<host>", f.site.Host); !strings.HasPrefix(errText, want) {
			t.Errorf("%s: %q, want %q", tt.input, errText, want)
		}
	}
}

// TestPreapprovedSites proves Claude Code's list of documentation sites
// fetched without asking, path prefixes and GitHub's main branches included.
func TestPreapprovedSites(t *testing.T) {
	tests := []struct {
		host, path string
		want       bool
	}{
		{"docs.python.org", "/3/library/os.html", true},
		{"DOCS.PYTHON.ORG", "/", true},
		{"go.dev", "/doc/effective_go", true},
		{"go.dev", "/dl", false},
		{"go.dev", "/doc%2f..%2fdl", false},
		{"github.com", "/anthropics/claude-code/issues/1", true},
		{"github.com", "/anthropic-experimental/repo/tree/main/src", true},
		{"github.com", "/anthropic-experimental/repo/pull/3", false},
		{"raw.githubusercontent.com", "/anthropics/repo/refs/heads/main/README.md", true},
		{"raw.githubusercontent.com", "/anthropics/repo/refs/heads/dev/README.md", false},
		{"example.com", "/", false},
	}
	for _, tt := range tests {
		if got := preapproved(tt.host, tt.path); got != tt.want {
			t.Errorf("preapproved(%s, %s) = %v, want %v", tt.host, tt.path, got, tt.want)
		}
	}
}

// TestRedirectsFollowedOnlyWithinTheSite proves which redirects are
// followed: same scheme, port and host, "www." aside.
func TestRedirectsFollowedOnlyWithinTheSite(t *testing.T) {
	tests := []struct {
		to   string
		want bool
	}{
		{"https://example.com/b", true},
		{"https://www.example.com/b", true},
		{"http://example.com/b", false},
		{"https://example.com:8443/b", false},
		{"https://user@example.com/b", false},
		{"https://other.example/b", false},
	}
	for _, tt := range tests {
		if got := sameSite("https://example.com/a", tt.to); got != tt.want {
			t.Errorf("sameSite(%s) = %v, want %v", tt.to, got, tt.want)
		}
	}
}

// TestDeniedCallsNameTheHost proves what the permission rules see: the host,
// and the preapproved sites allowed by the tool itself.
func TestDeniedCallsNameTheHost(t *testing.T) {
	call, err := Tool.Parse(json.RawMessage(`{"url":"https://Docs.Example.com/a","prompt":"p"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := call.Accesses(t.Context(), nil).Domains; len(got) != 1 || got[0] != "docs.example.com" {
		t.Errorf("domains %v", got)
	}
	if v := call.CheckPermissions(t.Context(), nil); v.Behavior != 0 {
		t.Errorf("verdict %v for an unlisted host", v.Behavior)
	}
	call, _ = Tool.Parse(json.RawMessage(`{"url":"https://docs.python.org/3/","prompt":"p"}`))
	if v := call.CheckPermissions(t.Context(), nil); v.Message != "Preapproved host" {
		t.Errorf("verdict %+v for a preapproved host", v)
	}
}
