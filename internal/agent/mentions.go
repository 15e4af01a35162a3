package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/workspace"
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
// <system-reminder>; a #L10-20 or #L10 suffix reads only those lines. For a
// directory, a listing of its entries. Mentions of missing, denied or outside
// paths, or of files Read refuses, attach nothing and stay plain text in the
// prompt. Quoted mentions come first, then the others, each in prompt order.
func Mentions(ctx context.Context, prompt string, src MentionSource) []Attachment {
	var attached []Attachment
	seen := map[readInput]bool{}
	for _, token := range mentionTokens(prompt) {
		at, in, ok := src.locate(token)
		if !ok || seen[in] {
			continue
		}
		seen[in] = true
		if at.Directory {
			at.Blocks = listing(at.Path)
		} else {
			at.Blocks = src.read(ctx, in)
		}
		if len(at.Blocks) > 0 {
			attached = append(attached, at)
		}
	}
	return attached
}

// withAttachments returns the user messages that carry prompt and what its
// mentions attached, laid out as Claude Code sends them: the first reminder
// alone in a message, then one message with the other reminders, each ending
// in a newline, followed by the prompt's own blocks.
func withAttachments(prompt llm.Message, attached []Attachment) []llm.Message {
	var reminders []llm.ContentBlock
	for _, at := range attached {
		reminders = append(reminders, at.Blocks...)
	}
	if len(reminders) == 0 {
		return []llm.Message{prompt}
	}
	rest := make([]llm.ContentBlock, 0, len(reminders)-1+len(prompt.Content))
	for _, b := range reminders[1:] {
		rest = append(rest, llm.TextBlock(b.Text+"\n"))
	}
	return []llm.Message{
		{Role: llm.RoleUser, Content: reminders[:1]},
		{Role: llm.RoleUser, Content: append(rest, prompt.Content...)},
	}
}

// mentionToken is one @ mention as typed, without the @ and the quotes.
type mentionToken struct {
	text   string
	quoted bool
}

// mentionTokens returns the prompt's @ mentions as Claude Code finds them: an
// @ at the start or after white space, followed by a double-quoted path that
// may hold spaces or by a path up to the next white space. Quoted mentions
// come first; a mention typed twice counts once.
func mentionTokens(prompt string) []mentionToken {
	var quoted, plain []mentionToken
	for i := 0; i < len(prompt); i++ {
		if prompt[i] != '@' || (i > 0 && strings.IndexByte(spaces, prompt[i-1]) < 0) {
			continue
		}
		rest := prompt[i+1:]
		if inner, ok := strings.CutPrefix(rest, `"`); ok {
			if end := strings.IndexByte(inner, '"'); end > 0 {
				quoted = append(quoted, mentionToken{text: inner[:end], quoted: true})
			}
			continue
		}
		end := strings.IndexAny(rest, spaces)
		if end < 0 {
			end = len(rest)
		}
		if end > 0 {
			plain = append(plain, mentionToken{text: rest[:end]})
		}
	}
	var tokens []mentionToken
	for _, t := range append(quoted, plain...) {
		if !slices.Contains(tokens, t) {
			tokens = append(tokens, t)
		}
	}
	return tokens
}

// spaces are the white space that ends an unquoted mention.
const spaces = " \t\n\r\v\f"

// mentionSyntax splits a mention into its path, the lines of a #L10 or
// #L10-20 suffix, and any other #fragment, which is ignored.
var mentionSyntax = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([^#]+)(?:#L(\d+)(?:-(\d+))?)?(?:#[^#]*)?$`) })

// readInput is the input of the Read call a file mention stands for.
type readInput struct {
	FilePath string `json:"file_path"`
	Offset   int    `json:"offset,omitempty"`
	Limit    int    `json:"limit,omitempty"`
}

// parseMention returns the path a mention names and the lines it asks for,
// as Read's offset and limit (both 0 for the whole file). A range that reads
// nothing, such as #L0 or #L20-10, or whose numbers do not fit, asks for
// the whole file, as the Read call Claude Code shows for it says.
func parseMention(mention string) (path string, offset, limit int) {
	m := mentionSyntax().FindStringSubmatch(mention)
	if m == nil {
		return mention, 0, 0
	}
	if m[2] == "" {
		return m[1], 0, 0
	}
	start, err := strconv.Atoi(m[2])
	end := start
	if err == nil && m[3] != "" {
		end, err = strconv.Atoi(m[3])
	}
	if err != nil || start < 1 || end < start {
		return m[1], 0, 0
	}
	return m[1], start, end - start + 1
}

// locate resolves a mention to an existing path inside the allowed directories
// that no rule forbids reading, and the Read call that attaches it. An
// unquoted mention ends at its last letter, digit or underscore, as in
// "see @main.go." or "@main.go#L3,"; when that names nothing, the whole
// mention is tried.
func (src MentionSource) locate(token mentionToken) (Attachment, readInput, bool) {
	candidates := []string{token.text}
	if !token.quoted {
		candidates = []string{strings.TrimRightFunc(token.text, notWordRune), token.text}
	}
	for _, candidate := range candidates {
		path, offset, limit := parseMention(candidate)
		if path == "" {
			continue
		}
		abs := workspace.Resolve(&src.Env, path)
		info, err := os.Stat(abs)
		if err != nil {
			continue
		}
		if !workspace.Inside(&src.Env, abs) {
			return Attachment{}, readInput{}, false
		}
		if src.Permissions != nil && src.Permissions.ReadDenied(workspace.RealPath(abs)) {
			return Attachment{}, readInput{}, false
		}
		if info.IsDir() {
			offset, limit = 0, 0
		}
		return Attachment{Path: abs, Directory: info.IsDir()}, readInput{abs, offset, limit}, true
	}
	return Attachment{}, readInput{}, false
}

// notWordRune reports whether r falls outside the ASCII letters, digits and
// underscore, where an unquoted mention may end.
func notWordRune(r rune) bool {
	return !(r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
}

// read runs the pool's Read tool with the input the way the model would call
// it, so its limits apply and the session remembers the read for a later Edit.
func (src MentionSource) read(ctx context.Context, in readInput) []llm.ContentBlock {
	read := tool.Find(src.Pool, "Read")
	if read == nil {
		return nil
	}
	input, err := compactJSON(in)
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
