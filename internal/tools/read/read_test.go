package read

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
	"github.com/mini-claude/mini-claude/internal/workspace"
)

// textFixtures are the text files the table tests read, by name.
func textFixtures() map[string][]byte {
	var lines, big, mid strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&lines, "line %d\n", i)
	}
	for i := 1; i <= 6000; i++ {
		fmt.Fprintf(&big, "big line %06d %s\n", i, strings.Repeat("x", 40))
	}
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&mid, "mid line %06d %s\n", i, strings.Repeat("y", 40))
	}
	le := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune("hello\r\nwörld 😀\r\n")) {
		le = append(le, byte(u), byte(u>>8))
	}
	random := make([]byte, 4096)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	return map[string][]byte{
		"a.txt":         []byte("alpha\nbeta\n"),
		"crlf.txt":      []byte("one\r\ntwo\r\nthree"),
		"lines.txt":     []byte(lines.String()),
		"nonl.txt":      []byte("no newline at end"),
		"only_nl.txt":   []byte("\n"),
		"empty.txt":     nil,
		"bom.txt":       []byte("\xEF\xBB\xBFbom line\n"),
		"utf16.txt":     le,
		"latin1.txt":    []byte("Gr\xfc\xdfe aus K\xf6ln\nplain\n"),
		"big.txt":       []byte(big.String()),
		"mid.txt":       []byte(mid.String()),
		"long.txt":      append(append([]byte("short\n"), bytes.Repeat([]byte("Z"), 150_000)...), "\nafter\n"...),
		"Notes.md":      []byte("n\n"),
		"config.yaml":   []byte("k: v\n"),
		"settings.json": []byte("{}\n"),
		"nul.dat":       []byte("abc\x00def\n"),
		"random.data":   random,
		"program.bin":   []byte("text inside a .bin\n"),
		"sub/inner.txt": []byte("inner\n"),
	}
}

func TestReadTable(t *testing.T) {
	env := newEnv(t)
	for name, content := range textFixtures() {
		write(t, env.Cwd, name, content)
	}
	tests := []struct {
		name, input, golden string
	}{
		{"whole file ends with an empty numbered line", `{"file_path":"a.txt"}`, "text_basic"},
		{"absolute path", `{"file_path":"` + filepath.Join(env.Cwd, "a.txt") + `"}`, "text_basic"},
		{"CR of CRLF not shown", `{"file_path":"crlf.txt"}`, "text_crlf"},
		{"offset and limit", `{"file_path":"lines.txt","offset":3,"limit":2}`, "text_offset_limit"},
		{"offset 0 reads from line 1", `{"file_path":"lines.txt","offset":0,"limit":2}`, "text_offset_zero"},
		{"limit alone", `{"file_path":"lines.txt","limit":3}`, "text_limit"},
		{"offset on the last, empty, line", `{"file_path":"lines.txt","offset":11}`, "text_offset_last"},
		{"lenient numbers", `{"file_path":"lines.txt","offset":"3","limit":"2"}`, "text_offset_limit"},
		{"no final newline", `{"file_path":"nonl.txt"}`, "text_no_final_newline"},
		{"a lone newline is two lines", `{"file_path":"only_nl.txt"}`, "text_only_newline"},
		{"empty file", `{"file_path":"empty.txt"}`, "text_empty"},
		{"empty file with an offset", `{"file_path":"empty.txt","offset":5}`, "text_empty"},
		{"offset past the end", `{"file_path":"lines.txt","offset":50}`, "text_past_end"},
		{"UTF-8 byte-order mark dropped", `{"file_path":"bom.txt"}`, "text_bom"},
		{"UTF-16 decoded", `{"file_path":"utf16.txt"}`, "text_utf16"},
		{"legacy encoding shown with a note", `{"file_path":"latin1.txt"}`, "text_invalid_utf8"},
		{"large file refused whole", `{"file_path":"big.txt"}`, "error_too_large"},
		{"large file by range", `{"file_path":"big.txt","offset":5999,"limit":3}`, "text_large_range"},
		{"missing file, other case", `{"file_path":"notes.md"}`, "error_missing_case"},
		{"missing file, other extension", `{"file_path":"config.yml"}`, "error_missing_extension"},
		{"missing file, typo", `{"file_path":"settigns.json"}`, "error_missing_typo"},
		{"missing file, nothing alike", `{"file_path":"zzz/nothing.go"}`, "error_missing_plain"},
		{"directory", `{"file_path":"sub"}`, "error_directory"},
		{"binary by extension", `{"file_path":"program.bin"}`, "error_binary_extension"},
		{"binary by NUL byte", `{"file_path":"nul.dat"}`, "error_binary_nul"},
		{"binary by random bytes", `{"file_path":"random.data"}`, "error_binary_random"},
		{"limit 0 reads to the end", `{"file_path":"a.txt","limit":0}`, "text_basic"},
		{"offset and limit 0", `{"file_path":"lines.txt","offset":3,"limit":0}`, "text_offset_no_limit"},
		{"negative limit", `{"file_path":"a.txt","limit":-2}`, "error_limit_negative"},
		{"negative offset", `{"file_path":"a.txt","offset":-1}`, "error_offset_negative"},
		{"empty path", `{"file_path":""}`, "error_empty_path"},
		{"pages ignored for text", `{"file_path":"a.txt","pages":"1-2"}`, "text_basic"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := run(context.Background(), env, tt.input)
			got := ""
			if err != nil {
				got = "ERROR: " + err.Error()
			} else {
				got = toBlocks(res.Output.(Output))[0].Text
			}
			golden(t, tt.golden, strings.ReplaceAll(got, env.Cwd, "$DIR"))
		})
	}
}

func TestExactFormatOfClaudeCode(t *testing.T) {
	env := newEnv(t)
	write(t, env.Cwd, "a.txt", []byte("alpha\nbeta\n"))
	res, err := run(context.Background(), env, `{"file_path":"a.txt"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].Text; got != "1\talpha\n2\tbeta\n3\t" || len(res.Content) != 1 {
		t.Fatalf("content %q, want exactly %q", got, "1\talpha\n2\tbeta\n3\t")
	}
	out := res.Output.(Output)
	want := File{FilePath: filepath.Join(env.Cwd, "a.txt"), Content: "alpha\nbeta\n", StartLine: 1, NumLines: 3, TotalLines: 3}
	if !reflect.DeepEqual(out.File, want) || out.Type != KindText {
		t.Errorf("output %+v, want %+v", out, want)
	}
}

func TestTruncationSaysWhereToContinue(t *testing.T) {
	env := newEnv(t)
	for name, content := range textFixtures() {
		write(t, env.Cwd, name, content)
	}
	tests := []struct {
		name, input, golden string
		wantNext            int
	}{
		{"whole read over the token budget", `{"file_path":"mid.txt"}`, "text_truncated", 1631},
		{"range over the token budget", `{"file_path":"big.txt","offset":10,"limit":5000}`, "text_truncated_range", 1640},
		{"one line longer than the budget", `{"file_path":"long.txt","offset":2}`, "text_cut_line", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := run(context.Background(), env, tt.input)
			if err != nil {
				t.Fatal(err)
			}
			text := res.Content[0].Text
			if len(text) > outputBudget+1000 {
				t.Errorf("result is %d bytes, over the budget of %d", len(text), outputBudget)
			}
			if !strings.Contains(text, fmt.Sprintf("offset: %d", tt.wantNext)) {
				t.Errorf("result does not say to continue from %d:\n%s", tt.wantNext, tail(text, 400))
			}
			golden(t, tt.golden, tail(strings.ReplaceAll(text, env.Cwd, "$DIR"), 600))
		})
	}
	t.Run("allow_large reads the whole large file", func(t *testing.T) {
		res, err := run(context.Background(), env, `{"file_path":"big.txt","allow_large":true}`)
		if err != nil {
			t.Fatal(err)
		}
		if text := res.Content[0].Text; !strings.HasSuffix(text, "6000\tbig line 006000 "+strings.Repeat("x", 40)+"\n6001\t") {
			t.Errorf("allow_large result ends %q", tail(text, 100))
		}
	})
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + cutFromRune(s, len(s)-n)
}

func cutFromRune(s string, i int) string {
	for i < len(s) && s[i]&0xC0 == 0x80 {
		i++
	}
	return s[i:]
}

func TestDevicesRefusedBeforeAnyIO(t *testing.T) {
	env := newEnv(t)
	for _, path := range []string{"/dev/zero", "/dev/random", "/dev/urandom", "/dev/stdin", "/dev/tty", "/dev/stdout", "/dev/stderr", "/dev/fd/0", "/proc/self/fd/0", "/proc/1/fd/1", "/proc/self/environ", "/proc/kmsg"} {
		t.Run(path, func(t *testing.T) {
			call, err := Tool.Parse(json.RawMessage(`{"file_path":"` + path + `"}`))
			if err != nil {
				t.Fatal(err)
			}
			err = call.Validate(context.Background(), env)
			if err == nil || !strings.Contains(err.Error(), "device or a process's file") {
				t.Fatalf("Validate = %v, want the device refusal", err)
			}
		})
	}
	golden(t, "error_device", "ERROR: "+deviceError("/dev/zero").Error())
}

func TestBinaryExtensionsRefusedInValidation(t *testing.T) {
	env := newEnv(t)
	for _, name := range []string{"x.bin", "x.exe", "x.so", "x.dll", "x.zip", "x.gz", "x.tar", "x.class", "x.o", "x.a", "x.pyc", "X.JAR", "x.mp4", "x.sqlite"} {
		call, err := Tool.Parse(json.RawMessage(`{"file_path":"` + name + `"}`))
		if err != nil {
			t.Fatal(err)
		}
		if err := call.Validate(context.Background(), env); err == nil || !strings.Contains(err.Error(), "binary") {
			t.Errorf("%s: Validate = %v, want a binary-file refusal", name, err)
		}
	}
	for _, name := range []string{"x.go", "x.svg", "x.png", "x.pdf", "x.ipynb", "Makefile", "x.dat", "x.key"} {
		call, _ := Tool.Parse(json.RawMessage(`{"file_path":"` + name + `"}`))
		if err := call.Validate(context.Background(), env); err != nil {
			t.Errorf("%s: Validate = %v, want it accepted", name, err)
		}
	}
}

func TestFileStateRecordsWhatWasSeen(t *testing.T) {
	env := newEnv(t)
	for name, content := range textFixtures() {
		write(t, env.Cwd, name, content)
	}
	tests := []struct {
		input, file string
		full        bool
	}{
		{`{"file_path":"a.txt"}`, "a.txt", true},
		{`{"file_path":"empty.txt"}`, "empty.txt", true},
		{`{"file_path":"lines.txt","offset":2,"limit":3}`, "lines.txt", false},
		{`{"file_path":"mid.txt"}`, "mid.txt", false},
		{`{"file_path":"big.txt","allow_large":true}`, "big.txt", true},
		{`{"file_path":"a.txt","offset":0}`, "a.txt", true},
		{`{"file_path":"lines.txt","limit":0}`, "lines.txt", true},
	}
	for _, tt := range tests {
		if _, err := run(context.Background(), env, tt.input); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(env.Cwd, tt.file)
		rec, ok := fileaccess.StateOf(env).Lookup(path)
		info, _ := os.Stat(path)
		if !ok || rec.Full != tt.full || !rec.ModTime.Equal(info.ModTime()) {
			t.Errorf("%s: record %+v (found %v), want full=%v at mtime %v", tt.input, rec, ok, tt.full, info.ModTime())
		}
		if changed, err := fileaccess.Changed(path, rec); changed || err != nil {
			t.Errorf("%s: Changed = %v, %v right after the read", tt.input, changed, err)
		}
	}
}

func TestPermissions(t *testing.T) {
	env := newEnv(t)
	home := t.TempDir()
	t.Setenv("MINI_CLAUDE_HOME", home)
	own := filepath.Join(home, "projects", "-work-project", env.SessionID, "tool-results")
	other := filepath.Join(home, "projects", "-work-project", "session-2", "tool-results")
	write(t, own, "toolu_1.txt", []byte("stored"))
	write(t, other, "toolu_2.txt", []byte("stored"))
	secret := write(t, t.TempDir(), "secret.txt", []byte("s"))
	os.Symlink(secret, filepath.Join(own, "link.txt"))
	tests := []struct {
		path string
		want tool.Behavior
	}{
		{"inside.txt", tool.Allow},
		{filepath.Join(own, "toolu_1.txt"), tool.Allow},
		{filepath.Join(own, "..", "..", "session-2", "tool-results", "toolu_2.txt"), tool.Ask},
		{filepath.Join(other, "toolu_2.txt"), tool.Ask},
		{filepath.Join(own, "link.txt"), tool.Ask},
		{filepath.Join(home, "projects", "-work-project", env.SessionID, "transcript.jsonl"), tool.Ask},
		{"/etc/hostname", tool.Ask},
	}
	for _, tt := range tests {
		call, err := Tool.Parse(json.RawMessage(`{"file_path":"` + tt.path + `"}`))
		if err != nil {
			t.Fatal(err)
		}
		own := call.CheckPermissions(context.Background(), env)
		access := call.Accesses(context.Background(), env)
		perm := permission.Context{Mode: permission.ModeDefault, Dirs: []string{workspace.RealPath(env.Cwd)}}
		got := perm.Decide(permission.Query{Tool: "Read", ReadOnly: true, ToolVerdict: permission.Behavior(own.Behavior), Reads: access.Reads})
		if want := permission.Behavior(tt.want); got.Behavior != want {
			t.Errorf("%s: %v (%s), want %v", tt.path, got.Behavior, got.Reason, want)
		}
	}
}

func TestSchemaMatchesClaudeCode(t *testing.T) {
	theirs, err := os.ReadFile(filepath.Join("testdata", "claude_code_read_schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want, got map[string]any
	json.Unmarshal(theirs, &want)
	json.Unmarshal(Tool.InputSchema(), &got)
	delete(want, "$schema")
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", "  ")
		t.Errorf("schema differs from Claude Code's:\n%s", g)
	}
	call := Tool.ZeroCall()
	if !call.IsReadOnly() || !call.IsConcurrencySafe() || Tool.MaxResultSizeChars() != tool.Unlimited {
		t.Error("Read must be read-only, concurrency-safe and bound its own results")
	}
}

func TestCancelledReadStops(t *testing.T) {
	env := newEnv(t)
	write(t, env.Cwd, "big.txt", bytes.Repeat([]byte("line\n"), 1<<20))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := run(ctx, env, `{"file_path":"big.txt","offset":1000000,"limit":5}`); err == nil {
		t.Fatal("a cancelled read returned no error")
	}
}

func TestRangeReadsInConstantMemory(t *testing.T) {
	env := newEnv(t)
	path := filepath.Join(env.Cwd, "one-line.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte("0123456789abcdef"), 1<<12)
	for range 320 {
		f.Write(chunk)
	}
	f.WriteString("\nsecond line\n")
	f.Close()
	for _, input := range []string{`{"file_path":"one-line.txt","offset":2,"limit":1}`, `{"file_path":"one-line.txt","offset":1,"limit":1}`} {
		allocated := allocatedBy(func() {
			if _, err := run(context.Background(), env, input); err != nil {
				t.Fatal(err)
			}
		})
		if allocated > 2<<20 {
			t.Errorf("%s allocated %d bytes reading a 20 MB line; want constant memory (< 2 MB)", input, allocated)
		}
	}
}

// freshRoom is about the context room the agent gives a fresh session's
// first calls on a 200,000-token model, as Claude Code's was when recorded.
const freshRoom = 108_000

// TestAllowLargeAsClaudeCode reads the files of the recordings under
// testdata/claude-code with allow_large in a fresh session's room: Claude
// Code returned each whole (412 KB for the larger), and so must we. Claude
// Code trims the white space off the end of every tool result it sends, the
// tab of the last, empty, numbered line included; the comparison does too.
func TestAllowLargeAsClaudeCode(t *testing.T) {
	for _, name := range []string{"allow_large", "allow_large_bigger"} {
		t.Run(name, func(t *testing.T) {
			rec := goldenfile.LoadRecording(t, name)
			env := newEnv(t)
			rec.WriteFiles(t, env.Cwd)
			env.Session.SetContextRoom(freshRoom)
			i := len(rec.Calls) - 1
			res, err := run(context.Background(), env, string(rec.Input(i, env.Cwd)))
			if err != nil {
				t.Fatal(err)
			}
			got := strings.TrimRight(res.Content[0].Text, " \t\n")
			if !rec.Results[i].Matches(got) {
				t.Errorf("%d characters ending %q; Claude Code's %d ended %q", len(got), tail(got, 120), rec.Results[i].Length, tail(rec.Results[i].Text, 120))
			}
		})
	}
}

// TestAllowLargeReadsShareTheRoom: a second allow_large read in the same
// batch gets what the first left of the room, and no less than a plain read.
func TestAllowLargeReadsShareTheRoom(t *testing.T) {
	env := newEnv(t)
	line := "0123456789 abcdefghij 0123456789 abcdefghij 0123456789\n"
	write(t, env.Cwd, "a.txt", []byte(strings.Repeat(line, 7500)))
	write(t, env.Cwd, "b.txt", []byte(strings.Repeat(line, 7500)))
	env.Session.SetContextRoom(120_000)
	first, err := run(context.Background(), env, `{"file_path":"a.txt","allow_large":true}`)
	if err != nil || !strings.HasSuffix(first.Content[0].Text, "\n7501\t") {
		t.Fatalf("first read: %v, ends %q; want the whole file", err, tail(first.Content[0].Text, 80))
	}
	second, err := run(context.Background(), env, `{"file_path":"b.txt","allow_large":true}`)
	if err != nil {
		t.Fatal(err)
	}
	if text := second.Content[0].Text; len(text) > outputBudget*12/10 || !strings.Contains(text, "Continue with offset: ") {
		t.Errorf("second read is %d bytes ending %q; want a plain read's share and a note on how to go on", len(text), tail(text, 200))
	}
	if room, _ := env.Session.ContextRoom(); room != 0 {
		t.Errorf("room left %d, want it used up", room)
	}
}

// TestZeroOffsetAndLimitAsClaudeCode makes the reads recorded from Claude
// Code with offset 0 and limit 0: neither is an error, offset 0 reads from
// the start and limit 0 to the end. Where Claude Code numbers the lines of an
// offset-0 read from 0, ours keep their real numbers, on purpose: Edit, Grep
// and compilers count from 1.
func TestZeroOffsetAndLimitAsClaudeCode(t *testing.T) {
	rec := goldenfile.LoadRecording(t, "offset_limit_zero")
	ours := map[int]string{0: "1\tone\n2\ttwo\n3\tthree\n4", 2: "1\tone"}
	env := newEnv(t)
	rec.WriteFiles(t, env.Cwd)
	for i, want := range rec.Results {
		res, err := run(context.Background(), env, string(rec.Input(i, env.Cwd)))
		if (err != nil) != want.IsError {
			t.Fatalf("%s: %v, Claude Code's is_error %v", rec.Calls[i].Input, err, want.IsError)
		}
		wantText := want.Text
		if text, ok := ours[i]; ok {
			wantText = text
		}
		if got := strings.TrimRight(res.Content[0].Text, " \t\n"); got != wantText {
			t.Errorf("%s: got %q, want %q (Claude Code's %q)", rec.Calls[i].Input, got, wantText, want.Text)
		}
	}
}
