// Package resultstore keeps tool results that are too large for the
// conversation: the full text goes to a file in the session's folder and the
// model gets a <persisted-output> block with the size, the path and a preview
// of both ends, from which it can Read the rest.
package resultstore

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// PreviewBytes is the size of each end of a preview.
const PreviewBytes = 2000

// maxSlug is the length past which a project slug is cut and given a hash, as Claude Code does.
const maxSlug = 200

// Root returns the folder that holds every session's results: the per-user
// folder's projects/, or one in the temporary directory when there is no per-user folder.
func Root() string {
	home := config.Home()
	if home == "" {
		home = filepath.Join(os.TempDir(), "mini-claude-"+strconv.Itoa(os.Getuid()))
	}
	return filepath.Join(home, "projects")
}

// Dir returns the folder of the session's stored results:
// <per-user folder>/projects/<project slug>/<session id>/tool-results.
func Dir(env *tool.Env) string {
	project := env.Cwd
	if env.Session != nil {
		project = env.Session.OriginalCwd()
	}
	return filepath.Join(Root(), ProjectSlug(project), env.SessionID, "tool-results")
}

// Path returns the file that holds the result of the tool call toolUseID.
func Path(env *tool.Env, toolUseID string) string {
	return filepath.Join(Dir(env), fileName(toolUseID)+".txt")
}

// Create creates (or empties) the file for the result of toolUseID, with its
// folders, readable by the user alone.
func Create(env *tool.Env, toolUseID string) (*os.File, error) {
	path := Path(env, toolUseID)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create the results folder: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create the result file: %w", err)
	}
	return f, nil
}

// Owns reports whether abs is a file of the stored results, which Read may
// open without asking: the model was given its path. Symlinks are followed,
// so a link placed among the results cannot lead elsewhere.
func Owns(abs string) bool {
	root := Root()
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	path := filepath.Clean(abs)
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	parts := strings.Split(rel, string(filepath.Separator))
	return len(parts) >= 3 && parts[len(parts)-2] == "tool-results"
}

// ProjectSlug turns a project directory into a folder name the way Claude
// Code does: every character but ASCII letters and digits becomes '-', and a
// name longer than 200 is cut and given a hash of the whole path.
func ProjectSlug(dir string) string {
	var b strings.Builder
	for _, r := range dir {
		if r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
			continue
		}
		// JavaScript counts UTF-16 units; a character outside the BMP is two dashes there.
		b.WriteString(strings.Repeat("-", utf16Len(r)))
	}
	slug := b.String()
	if len(slug) <= maxSlug {
		return slug
	}
	return slug[:maxSlug] + "-" + strconv.FormatInt(abs64(int64(javaHash(dir))), 36)
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// javaHash is the 32-bit string hash Claude Code uses for long slugs.
func javaHash(s string) int32 {
	var h int32
	for _, u := range utf16Units(s) {
		h = 31*h + int32(u)
	}
	return h
}

func utf16Units(s string) []uint16 {
	var units []uint16
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			units = append(units, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
			continue
		}
		units = append(units, uint16(r))
	}
	return units
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// fileName keeps letters, digits, '_', '-' and non-leading dots of a tool
// call id, and percent-encodes the rest, so the id cannot leave the folder.
func fileName(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' && b.Len() > 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	if b.Len() == 0 {
		return "%"
	}
	return b.String()
}

// Fit returns content as it is when its text is at most limit characters, and
// otherwise stores the text in the file for env.ToolUseID and returns the
// <persisted-output> block in its place. Content with an image or any other
// non-text block is never stored. When the file cannot be written, the model
// gets the first limit characters and a note saying the rest was dropped.
func Fit(env *tool.Env, content []llm.ContentBlock, limit int) []llm.ContentBlock {
	if limit <= 0 || limit == tool.Unlimited {
		return content
	}
	texts := make([]string, 0, len(content))
	chars := 0
	for _, b := range content {
		if b.Type != llm.BlockText {
			return content
		}
		texts = append(texts, b.Text)
		chars += utf8.RuneCountInString(b.Text)
	}
	if chars <= limit {
		return content
	}
	text := strings.Join(texts, "\n")
	stored, err := Store(env, env.ToolUseID, text)
	if err != nil {
		return []llm.ContentBlock{llm.TextBlock(dropped(text, limit, err))}
	}
	return []llm.ContentBlock{llm.TextBlock(stored.String())}
}

// Store writes text to the file for toolUseID and describes it for the model.
func Store(env *tool.Env, toolUseID, text string) (Persisted, error) {
	f, err := Create(env, toolUseID)
	if err != nil {
		return Persisted{}, err
	}
	_, err = f.WriteString(text)
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return Persisted{}, fmt.Errorf("write %s: %w", f.Name(), err)
	}
	head, tail := Preview(text)
	return Persisted{Path: f.Name(), Size: int64(len(text)), Stored: int64(len(text)), Head: head, Tail: tail}, nil
}

func dropped(text string, limit int, err error) string {
	head := Head(text, runeOffset(text, limit))
	return fmt.Sprintf("<truncated-output>\nOutput too large (%s) and it could not be saved (%v), so only the first %s are shown; the rest was dropped. If the tool can page or filter its results, call it again for the part you need.\n</truncated-output>\n%s",
		FormatSize(int64(len(text))), err, FormatSize(int64(len(head))), head)
}

// runeOffset returns the byte offset of the n-th character of s, or len(s).
func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}
