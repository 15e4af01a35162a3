package webfetch

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/web"
	"github.com/mini-claude/mini-claude/internal/tools/web/webtest"
)

// bigPage is an HTML page of about size bytes made of documentation-like
// sections: a nav bar, headings, paragraphs with links and bold text,
// lists, a table, a code block, and scripts and styles between them.
func bigPage(size int) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><title>Manual</title><style>body{font:14px sans-serif}</style></head><body>")
	b.WriteString(`<nav><a href="/">Home</a> <a href="/docs">Docs</a> <a href="/blog">Blog</a></nav>`)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `<h2 id="s%d">Section %d</h2>`, i, i)
		fmt.Fprintf(&b, `<p>The <b>option %d</b> changes how the build runs; see <a href="https://example.com/ref/%d">the reference</a> `+
			`and the <code>--flag-%d</code> switch. It is read once, when the program starts, and kept for the whole run.</p>`, i, i, i)
		b.WriteString("<ul><li>first, the defaults</li><li>then the settings file</li><li>last, the command line</li></ul>")
		fmt.Fprintf(&b, "<table><tr><th>name</th><th>default</th></tr><tr><td>opt%d</td><td>%d</td></tr></table>", i, i)
		fmt.Fprintf(&b, "<pre><code>go build -o out%d ./cmd/tool\n./out%d --flag-%d</code></pre>", i, i, i)
		fmt.Fprintf(&b, "<script>window.track && window.track(%d);</script>", i)
	}
	b.WriteString("</body></html>")
	return b.String()
}

// peakRSS resets and then reads the process's peak resident set size
// (VmHWM), in bytes; reset only resets it.
func peakRSS(b *testing.B, reset bool) int {
	if reset {
		if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
			b.Skip("cannot reset the peak RSS:", err)
		}
		return 0
	}
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skip("no /proc/self/status")
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return kb * 1024
		}
	}
	b.Skip("no VmHWM")
	return 0
}

// cpuTime is the CPU time (user and system) the process has used so far:
// on a shared machine a steadier figure than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkWebFetch2MBPage times one WebFetch call of a 2 MB HTML page
// from a local HTTPS server, through the whole tool (download, conversion
// of the first MiB to markdown, the part the call reads), without the small
// model (SkipSummary) and without the cache (a new session each time); it
// reports the CPU time per call (the server's share included) and the
// process's peak RSS over the run.
func BenchmarkWebFetch2MBPage(b *testing.B) {
	page := bigPage(2 << 20)
	site := webtest.New(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	}))
	input := json.RawMessage(`{"url":"https://` + site.Host + `/manual.html","prompt":"p"}`)
	dir := b.TempDir()
	peakRSS(b, true)
	cpu := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		env := &tool.Env{Cwd: dir, Session: tool.NewSession(dir), HostNamed: func(string) bool { return true }}
		web.Attach(env.Session, web.Config{Settings: web.Settings{SkipSummary: true}}, nil)
		res, err := tool.Exec(context.Background(), Tool, env, input, nil)
		if err != nil {
			b.Fatal(err)
		}
		if out := res.Output.(Output); out.Bytes != len(page) || !strings.Contains(out.Result, "Section 1\n") {
			b.Fatalf("fetched %d bytes: %.200q", out.Bytes, out.Result)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(peakRSS(b, false))/1e6, "peak-RSS-MB")
}

// BenchmarkConvert2MBPage times the conversion alone: the first MiB of a
// 2 MB HTML page to markdown, as WebFetch converts it.
func BenchmarkConvert2MBPage(b *testing.B) {
	page := []byte(bigPage(2 << 20))
	peakRSS(b, true)
	cpu := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		if md, ok := pageText("text/html", page); !ok || !strings.HasSuffix(md, truncatedNote) {
			b.Fatalf("conversion: %v, %.100q", ok, md)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(peakRSS(b, false))/1e6, "peak-RSS-MB")
}
