package read

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

// The limits of one read.
const (
	// maxWholeFileBytes is the largest file read whole without offset, limit
	// or allow_large.
	maxWholeFileBytes = 256 << 10
	// outputBudget bounds the numbered text of one read: about 25,000 tokens
	// at about 4 bytes a token.
	outputBudget = 100_000
	// largeOutputBudget bounds the text read with allow_large when the
	// session's context room is not known: about 100,000 tokens.
	largeOutputBudget = 400_000
	// bytesPerToken converts between a text's size and its tokens, as the
	// budgets above do.
	bytesPerToken = 4
	// maxInMemory is the largest whole-file read done in one piece, which
	// lets the session record the file's hash for Write and Edit.
	maxInMemory = 1 << 20
	// lineBufferSize is the read buffer of the line splitter.
	lineBufferSize = 64 << 10
)

// readText reads a window of lines from a text file: the whole file, or from
// offset for limit lines, in constant memory.
func readText(ctx context.Context, env *tool.Env, abs, real string, in Input) (Output, error) {
	f, info, err := openRegular(real)
	if err != nil {
		return Output{}, err
	}
	defer f.Close()
	ranged := in.Offset != nil || in.Limit != nil
	if !ranged && info.Size() > maxWholeFileBytes && !in.AllowLarge {
		return Output{}, fmt.Errorf("File content (%s) exceeds maximum allowed size (%s). Read part of it with offset and limit, search it with Grep, or, only if you genuinely need all of it, call Read again with allow_large: true",
			kilobytes(info.Size()), kilobytes(maxWholeFileBytes))
	}
	var whole []byte
	var src io.Reader = f
	if fileaccess.HasEditor(env) {
		if src, err = editorText(ctx, env, abs); err != nil {
			return Output{}, err
		}
	}
	if !ranged && info.Size() <= maxInMemory {
		whole, err = io.ReadAll(io.LimitReader(src, maxInMemory+1))
		if err != nil {
			return Output{}, fmt.Errorf("read %s: %w", abs, err)
		}
		src = io.MultiReader(bytes.NewReader(whole), src)
		if len(whole) > maxInMemory {
			whole = nil
		}
	}
	br := bufio.NewReaderSize(src, lineBufferSize)
	head, _ := br.Peek(sniffSize)
	enc := sniff(head)
	if enc == encBinary {
		return Output{}, binaryError(abs, strings.ToLower(filepath.Ext(abs)))
	}
	w := window{start: 1, budget: outputBudget, countAll: whole != nil}
	if in.Offset != nil && *in.Offset > 1 {
		w.start = *in.Offset
	}
	if in.Limit != nil {
		w.limit = *in.Limit
	}
	if in.AllowLarge {
		w.budget, w.contentOnly = largeBudget(env), true
	}
	ex, err := readWindow(ctx, textReader(br, enc), w, lineBufferSize)
	if err != nil {
		return Output{}, fmt.Errorf("read %s: %w", abs, err)
	}
	if in.AllowLarge {
		env.Session.UseContextRoom(ex.size() / bytesPerToken)
	}
	state := fileaccess.StateOf(env)
	if whole != nil && ex.next == 0 && ex.cutLength == 0 {
		state.RememberFull(abs, whole, info.ModTime())
	} else {
		state.RememberPart(abs, info.ModTime())
	}
	return textOutput(abs, w, ex, in.AllowLarge), nil
}

// editorText is the text of the file at abs as the session's editor has
// it, unsaved changes included.
func editorText(ctx context.Context, env *tool.Env, abs string) (io.Reader, error) {
	text, err := fileaccess.ReadText(ctx, env, abs)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", abs, err)
	}
	return bytes.NewReader(text), nil
}

// largeBudget is how much text an allow_large read returns: what still fits
// in the room the agent gave this batch of calls (other large reads of the
// batch take their part of it first), as Claude Code measures it, in the
// file's own text; never less than a read without allow_large.
func largeBudget(env *tool.Env) int {
	room, known := env.Session.ContextRoom()
	if !known {
		return largeOutputBudget
	}
	return max(room*bytesPerToken, outputBudget)
}

// textOutput turns an excerpt into Read's output, with the notes that tell the
// model what it is not seeing and how to get it.
func textOutput(abs string, w window, ex excerpt, allowLarge bool) Output {
	file := File{FilePath: abs, TotalLines: ex.total}
	switch {
	case ex.empty:
		file.Reminder = reminder("Warning: the file exists but the contents are empty.")
		return Output{Type: KindText, File: file}
	case len(ex.lines) == 0:
		file.Reminder = reminder(fmt.Sprintf("Warning: the file exists but is shorter than the provided offset (%d). The file has %s.",
			w.start, plural(ex.total, "line")))
		return Output{Type: KindText, File: file}
	}
	file.Content = strings.Join(ex.lines, "\n")
	file.StartLine, file.NumLines = w.start, len(ex.lines)
	last := w.start + len(ex.lines) - 1
	switch {
	case ex.cutLength > 0:
		shown := len(ex.lines[0])
		note := fmt.Sprintf("[Line %d is %d bytes long; only its first %d bytes are shown. Get the rest of that line with Bash, e.g. sed -n '%dp' %s | cut -b %d-%d",
			last, ex.cutLength, shown, last, shellQuote(abs), shown+1, min(ex.cutLength, shown+outputBudget/2))
		if ex.next > 0 {
			note += fmt.Sprintf("; continue after it with offset: %d", ex.next)
		}
		file.Notes = append(file.Notes, note+".]")
	case ex.next > 0:
		more := ""
		if !allowLarge {
			more = ", or, only if you genuinely need all of it at once, call Read again with allow_large: true"
		}
		file.Notes = append(file.Notes, fmt.Sprintf("[Showing lines %d-%d: the rest did not fit in one read of about %s tokens. Continue with offset: %d, search the file with Grep%s.]",
			w.start, last, thousands(w.budget/4), ex.next, more))
	}
	if ex.invalidUTF8 {
		file.Notes = append(file.Notes, "[This file is not valid UTF-8: it uses a legacy encoding such as Windows-1252, Shift-JIS or GBK, or it is binary. Its undecodable bytes show above as U+FFFD. Edit and Write will refuse it: change it with a shell command that keeps its encoding, or ask the user whether to convert it to UTF-8.]")
	}
	return Output{Type: KindText, File: file}
}

// kilobytes formats a size in whole KB, as the size-limit message shows it.
func kilobytes(n int64) string {
	return fmt.Sprintf("%dKB", (n+512)/1024)
}

// thousands formats n with comma separators, as 25,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,@:%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// statFile follows abs to the file it names and checks that it is one Read
// can open: it exists, is not a folder, is not a device, a pipe or a socket.
// It returns the path with symlinks resolved.
func statFile(env *tool.Env, abs string) (string, error) {
	real, err := filepath.EvalSymlinks(abs)
	switch {
	case os.IsNotExist(err):
		return "", missingFileError(env, abs)
	case err != nil:
		return "", fmt.Errorf("cannot read %s: %w", abs, err)
	}
	if real != abs {
		if err := deviceError(real); err != nil {
			return "", err
		}
	}
	info, err := os.Stat(real)
	switch {
	case err != nil:
		return "", fmt.Errorf("cannot read %s: %w", abs, err)
	case info.IsDir():
		return "", fmt.Errorf("%s is a directory, not a file. List it with Bash (ls) or find files in it with Glob, then Read a file inside it", abs)
	case !info.Mode().IsRegular():
		return "", notRegularError(abs, info.Mode())
	}
	return real, nil
}
