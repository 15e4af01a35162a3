package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

// MentionSource is what attaching the @path mentions of a prompt needs: the
// session's tool pool (whose Read tool reads the files), its environment and
// its permission context.
type MentionSource struct {
	Pool        []tool.Tool
	Env         tool.Env
	Permissions *permission.Context
}

// Attachment is what one @path mention of a prompt attached.
type Attachment struct {
	// Path is the absolute path of the file or directory.
	Path      string
	Directory bool
	// Blocks are the reminders sent before the prompt.
	Blocks []llm.ContentBlock
}

// Mentions returns what Claude Code sends before a prompt that mentions files
// as @path: for each existing file inside the allowed directories that the
// rules let the session read, the Read tool's call and its result, each in a
// <system-reminder>; for a directory, a listing of its entries. Mentions of
// missing, denied or outside paths, or of files Read refuses, attach nothing
// and stay plain text in the prompt.
func Mentions(ctx context.Context, prompt string, src MentionSource) []Attachment {
	var attached []Attachment
	seen := map[string]bool{}
	for _, mention := range mentionTokens(prompt) {
		abs, info, ok := src.locate(mention)
		if !ok || seen[abs] {
			continue
		}
		seen[abs] = true
		var blocks []llm.ContentBlock
		if info.IsDir() {
			blocks = listing(abs)
		} else {
			blocks = src.read(ctx, abs)
		}
		if len(blocks) > 0 {
			attached = append(attached, Attachment{Path: abs, Directory: info.IsDir(), Blocks: blocks})
		}
	}
	return attached
}

// mentionTokens returns the paths of the prompt's @ mentions: an @ at the start
// or after white space, followed by a path up to the next white space, or by
// a double-quoted path that may hold spaces.
func mentionTokens(prompt string) []string {
	var paths []string
	for i := 0; i < len(prompt); i++ {
		if prompt[i] != '@' || (i > 0 && !strings.ContainsRune(" \t\n", rune(prompt[i-1]))) {
			continue
		}
		rest := prompt[i+1:]
		if quoted, ok := strings.CutPrefix(rest, `"`); ok {
			if end := strings.IndexByte(quoted, '"'); end > 0 {
				paths = append(paths, quoted[:end])
			}
			continue
		}
		end := strings.IndexAny(rest, " \t\n")
		if end < 0 {
			end = len(rest)
		}
		if end > 0 {
			paths = append(paths, rest[:end])
		}
	}
	return paths
}

// locate resolves a mention to an existing path inside the allowed directories
// that no rule forbids reading. A mention ending in punctuation, as in
// "see @main.go.", is tried without it when the whole does not exist.
func (src MentionSource) locate(mention string) (string, os.FileInfo, bool) {
	for _, candidate := range []string{mention, strings.TrimRight(mention, ".,;:!?)'\"")} {
		if candidate == "" {
			continue
		}
		abs := fileaccess.Resolve(&src.Env, candidate)
		info, err := os.Stat(abs)
		if err != nil {
			continue
		}
		if !fileaccess.Inside(&src.Env, abs) {
			return "", nil, false
		}
		if src.Permissions != nil && src.Permissions.ReadDenied(fileaccess.RealPath(abs)) {
			return "", nil, false
		}
		return abs, info, true
	}
	return "", nil, false
}

// read runs the pool's Read tool on the file the way the model would call it,
// so its limits apply and the session remembers the read for a later Edit.
func (src MentionSource) read(ctx context.Context, abs string) []llm.ContentBlock {
	read := tools.Find(src.Pool, "Read")
	if read == nil {
		return nil
	}
	input, err := compactJSON(map[string]string{"file_path": abs})
	if err != nil {
		return nil
	}
	call, err := read.Parse(input)
	if err != nil {
		return nil
	}
	env := src.Env
	if err := call.Validate(ctx, &env); err != nil {
		return nil
	}
	if src.Permissions != nil && src.Permissions.Decide(PermissionQuery(ctx, call, &env)).Behavior == permission.Deny {
		return nil
	}
	res, err := call.Run(ctx, &env, func(tool.ProgressEvent) {})
	if err != nil {
		return nil
	}
	var text []string
	for _, b := range res.Content {
		if b.Type == llm.BlockText {
			text = append(text, b.Text)
		}
	}
	if len(text) == 0 {
		return nil
	}
	return calledTool("Read", input, strings.Join(text, "\n"))
}

// maxListed is how many entries of a mentioned directory are listed.
const maxListed = 1000

// listing attaches a directory's entries as Claude Code does, as the result
// of listing it with ls: in the order the directory holds them, hidden ones
// included, at most maxListed with a count of the rest.
func listing(dir string) []llm.ContentBlock {
	names, err := entryNames(dir)
	if err != nil {
		return nil
	}
	if len(names) > maxListed {
		names = append(names[:maxListed], fmt.Sprintf("… and %d more entries", len(names)-maxListed))
	}
	input, err := compactJSON(struct {
		Command     string `json:"command"`
		Description string `json:"description"`
	}{"ls " + dir, "Lists files in " + dir})
	if err != nil {
		return nil
	}
	return calledTool("Bash", input, strings.Join(names, "\n"))
}

// entryNames returns the names in dir, unsorted.
func entryNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	return names, nil
}

// calledTool is the pair of reminders that tell the model a tool was called
// on the user's behalf and what it returned.
func calledTool(name string, input []byte, result string) []llm.ContentBlock {
	return []llm.ContentBlock{
		llm.TextBlock(fmt.Sprintf("<system-reminder>\nCalled the %s tool with the following input: %s\n</system-reminder>", name, input)),
		llm.TextBlock(fmt.Sprintf("<system-reminder>\nResult of calling the %s tool:\n%s\n</system-reminder>", name, result)),
	}
}

// compactJSON encodes v as JSON.stringify does: no HTML escaping, no newline.
func compactJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode the tool input: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
