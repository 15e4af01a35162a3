package e2e

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

// numberedLines is what Read returns for lines first to last of a file whose
// line n is n.
func numberedLines(first, last int) string {
	var b strings.Builder
	for n := first; n <= last; n++ {
		fmt.Fprintf(&b, "%d\t%d\n", n, n)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// A 5 MB result, from Bash (which stores its own output) and from a custom
// tool (stored by the executor), reaches the model as a <persisted-output>
// preview with the path, and Read of that path, without asking, returns the
// lines the preview left out.
func TestFiveMegabyteResultIsPreviewedAndReadableInFull(t *testing.T) {
	const lastLine = 800_000 // seq 1 800000 prints 5,488,895 bytes
	sources := []struct {
		name     string
		use      llm.ContentBlock
		settings string
		// size is the size of the stored file, and end what Read shows past
		// the last number: Bash keeps the final newline, after which Read
		// shows an empty line; a custom tool's result is trimmed.
		size int64
		end  string
		// user puts the settings in the user's own file, where a custom
		// tool's readOnly is trusted, rather than in the project's.
		user bool
	}{
		{"Bash", bashUse("big", fmt.Sprintf("seq 1 %d", lastLine)), `{"permissions":{"allow":["Bash(seq:*)"]}}`, 5_488_895, "\n800001\t", false},
		{"custom tool", llmtest.ToolUse("big", "Numbers", `{}`),
			fmt.Sprintf(`{"tools":[{"name":"Numbers","description":"Prints the numbers from 1.","command":"seq 1 %d","readOnly":true}]}`, lastLine), 5_488_894, "", true},
	}
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			r := newRun(t)
			if src.user {
				r.userSettings(src.settings)
			} else {
				writeSettings(t, r.dir, ".mini-claude/settings.json", src.settings)
			}
			var mu sync.Mutex
			var path string
			var previewLast int
			r.srv.OnRequest(func(req llmtest.Request) {
				if req.AssistantTurns() != 1 {
					return
				}
				result := contentText(req.Messages[len(req.Messages)-1].Content[0])
				m := regexp.MustCompile(`(?s)^<persisted-output>\nOutput too large \(5\.2MB\)\. Full output saved to: (\S+)\nPreview \(start and end\):\n(.*)\n\[… [0-9.]+MB omitted …\]\n.*\n800000\n</persisted-output>$`).FindStringSubmatch(result)
				if m == nil {
					r.srv.Push(text("no preview"))
					t.Errorf("result is not a preview with the path: %q…", result[:min(len(result), 400)])
					return
				}
				head := strings.Split(m[2], "\n")
				mu.Lock()
				path = m[1]
				previewLast, _ = strconv.Atoi(head[len(head)-1])
				mu.Unlock()
				r.srv.Push(
					calls(
						readCall("after", fmt.Sprintf(`{"file_path":%q,"offset":%d,"limit":2000}`, m[1], previewLast+1)),
						readCall("middle", fmt.Sprintf(`{"file_path":%q,"offset":400000,"limit":3}`, m[1])),
						readCall("end", fmt.Sprintf(`{"file_path":%q,"offset":%d,"limit":100}`, m[1], lastLine-9)),
					),
					text("read it"),
				)
			})
			r.srv.Push(calls(src.use))
			if out := r.exec("-p", "print the numbers"); out.code != 0 {
				t.Fatalf("exit %d: %s", out.code, out.stderr)
			}
			mu.Lock()
			defer mu.Unlock()
			if path == "" {
				t.Fatal("no path reached the model")
			}
			if info, err := os.Stat(path); err != nil || info.Size() != src.size {
				t.Errorf("stored file: %v, %v", info, err)
			}
			want := []string{numberedLines(previewLast+1, previewLast+2000), numberedLines(400000, 400002), numberedLines(lastLine-9, lastLine) + src.end}
			for i, got := range lastResults(t, r.srv, 2) {
				if got.IsError || contentText(got) != want[i] {
					t.Errorf("read %s: %q… (error %v)", got.ToolUseID, contentText(got)[:min(200, len(contentText(got)))], got.IsError)
				}
			}
		})
	}
}
