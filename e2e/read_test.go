package e2e

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
)

func readCall(id, input string) llm.ContentBlock {
	return llmtest.ToolUse(id, "Read", input)
}

func TestReadThroughTheBinary(t *testing.T) {
	r := newRun(t)
	os.WriteFile(filepath.Join(r.dir, "a.txt"), []byte("alpha\nbeta\n"), 0o644)
	os.WriteFile(filepath.Join(r.dir, "crlf.txt"), []byte("one\r\ntwo\r\nthree\r\nfour\r\n"), 0o644)
	img := image.NewRGBA(image.Rect(0, 0, 2400, 300))
	for x := range 2400 {
		img.Set(x, x%300, color.RGBA{200, 30, 30, 255})
	}
	var pic bytes.Buffer
	png.Encode(&pic, img)
	os.WriteFile(filepath.Join(r.dir, "chart.png"), pic.Bytes(), 0o644)
	r.srv.Push(
		calls(
			readCall("r1", `{"file_path":"`+filepath.Join(r.dir, "a.txt")+`"}`),
			readCall("r2", `{"file_path":"crlf.txt","offset":2,"limit":2}`),
			readCall("r3", `{"file_path":"chart.png"}`),
			readCall("r4", `{"file_path":"a.md"}`),
			readCall("r5", `{"file_path":"/dev/zero"}`),
		),
		text("Read them."),
	)
	out := r.exec("-p", "read the files", "--output-format", "stream-json", "--verbose")
	if out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	results := map[string]llm.ContentBlock{}
	for _, b := range lastResults(t, r.srv, 1) {
		results[b.ToolUseID] = b
	}
	if got := results["r1"]; got.IsError || contentText(got) != "1\talpha\n2\tbeta\n3\t" {
		t.Errorf("whole read: %q (error %v)", contentText(got), got.IsError)
	}
	if got := contentText(results["r2"]); got != "2\ttwo\n3\tthree" {
		t.Errorf("range of a CRLF file: %q", got)
	}
	if got := results["r3"]; got.IsError || len(got.Content) != 1 || got.Content[0].Type != llm.BlockImage || got.Content[0].Source.MediaType != "image/png" {
		t.Errorf("image: %+v", got)
	}
	if got := results["r4"]; !got.IsError || !strings.Contains(contentText(got), "Did you mean "+filepath.Join(r.dir, "a.txt")) {
		t.Errorf("missing file: %q (error %v)", contentText(got), got.IsError)
	}
	if got := results["r5"]; !got.IsError || !strings.Contains(contentText(got), "device") {
		t.Errorf("device: %q (error %v)", contentText(got), got.IsError)
	}
	var sawResult bool
	for _, ev := range lines(t, out.stdout) {
		if ev["type"] != "user" {
			continue
		}
		if res, ok := ev["tool_use_result"].(map[string]any); ok && res["type"] == "text" {
			file := res["file"].(map[string]any)
			sawResult = sawResult || file["filePath"] == filepath.Join(r.dir, "a.txt") && file["numLines"] == 3.0
		}
	}
	if !sawResult {
		t.Errorf("no tool_use_result in Claude Code's shape for the text read:\n%s", out.stdout)
	}
}

func TestReadOutsideTheProjectNeedsPermission(t *testing.T) {
	r := newRun(t)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("s3cret\n"), 0o644)
	input, _ := json.Marshal(map[string]string{"file_path": outside})
	r.srv.Push(calls(readCall("r1", string(input))), text("Could not."))
	if out := r.exec("-p", "read it"); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	got := lastResults(t, r.srv, 1)[0]
	if !got.IsError || strings.Contains(contentText(got), "s3cret") {
		t.Errorf("read outside the allowed directories: %q (error %v), want a refusal", contentText(got), got.IsError)
	}
	r.srv.Push(calls(readCall("r2", string(input))), text("Read it."))
	if out := r.exec("-p", "read it", "--add-dir", filepath.Dir(outside)); out.code != 0 {
		t.Fatalf("exit %d: %s", out.code, out.stderr)
	}
	if got := lastResults(t, r.srv, 3)[0]; got.IsError || contentText(got) != "1\ts3cret\n2\t" {
		t.Errorf("read inside --add-dir: %q (error %v)", contentText(got), got.IsError)
	}
}
