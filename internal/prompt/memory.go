package prompt

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mini-claude/mini-claude/internal/config"
)

// Kinds of memory file, from the most general to the most specific.
const (
	// KindUser is the user's own instructions for every project: <home>/CLAUDE.md.
	KindUser = "user"
	// KindProject is instructions checked into the codebase: CLAUDE.md,
	// .claude/CLAUDE.md and AGENTS.md.
	KindProject = "project"
	// KindLocal is the user's private instructions for one project: CLAUDE.local.md.
	KindLocal = "local"
)

// MaxMemoryBytes is how much of each memory file is kept; the rest is dropped
// and the file marked Truncated.
const MaxMemoryBytes = 40 << 10

// MemoryFile is an instruction file that applies to a working directory.
type MemoryFile struct {
	// Path is the file's absolute path.
	Path string
	// Kind is KindUser, KindProject or KindLocal.
	Kind string
	// Content is the file's text, cut at MaxMemoryBytes when Truncated.
	Content string
	// Truncated reports that the file is longer than Content.
	Truncated bool
}

// projectFiles are the memory files looked for in each directory, in order.
var projectFiles = []struct{ name, kind string }{
	{"CLAUDE.md", KindProject},
	{filepath.Join(".claude", "CLAUDE.md"), KindProject},
	{"AGENTS.md", KindProject},
	{"CLAUDE.local.md", KindLocal},
}

// MemoryFiles returns the memory files for cwd: the user's <home>/CLAUDE.md,
// then each directory's files from the filesystem root down to cwd, so that
// more specific instructions come later. Unreadable and empty files are
// skipped, and a file reached twice (by symlink, or with the same content) is kept once.
func MemoryFiles(cwd string) []MemoryFile {
	return memoryFiles(absDir(cwd), config.Home())
}

func memoryFiles(cwd, home string) []MemoryFile {
	var c collector
	if home != "" {
		c.add(filepath.Join(absDir(home), "CLAUDE.md"), KindUser)
	}
	var dirs []string
	for dir := cwd; ; dir = filepath.Dir(dir) {
		dirs = append(dirs, dir)
		if filepath.Dir(dir) == dir {
			break
		}
	}
	for _, dir := range slices.Backward(dirs) {
		for _, f := range projectFiles {
			c.add(filepath.Join(dir, f.name), f.kind)
		}
	}
	return c.files
}

// collector accumulates memory files, each file and each content at most once.
type collector struct {
	files []MemoryFile
	seen  []os.FileInfo
}

func (c *collector) add(path, kind string) {
	f, info, err := openRegular(path)
	if err != nil {
		return
	}
	if slices.ContainsFunc(c.seen, func(s os.FileInfo) bool { return os.SameFile(s, info) }) {
		f.Close()
		return
	}
	c.seen = append(c.seen, info)
	data, err := readAtMost(f, MaxMemoryBytes+1)
	if err != nil {
		return
	}
	truncated := len(data) > MaxMemoryBytes
	if truncated {
		data = cutRunes(data, MaxMemoryBytes)
	}
	content := string(data)
	trimmed := strings.TrimSpace(content)
	if trimmed == "" || slices.ContainsFunc(c.files, func(m MemoryFile) bool { return strings.TrimSpace(m.Content) == trimmed }) {
		return
	}
	c.files = append(c.files, MemoryFile{Path: path, Kind: kind, Content: content, Truncated: truncated})
}

// cutRunes shortens data to at most n bytes without splitting a UTF-8 character.
func cutRunes(data []byte, n int) []byte {
	for n > 0 && !utf8.RuneStart(data[n]) {
		n--
	}
	return data[:n]
}

// kindDescriptions tell the model whose instructions a memory file holds.
var kindDescriptions = map[string]string{
	KindUser:    "the user's private global instructions, for all projects",
	KindProject: "project instructions, checked into the codebase",
	KindLocal:   "the user's private instructions for this project, not checked in",
}

// memorySection renders the memory files for the prompt, or "" when there are none.
func memorySection(files []MemoryFile) string {
	if len(files) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("# Memory files\n\nThe user keeps instructions in the files below. Follow them: they override the defaults above, and where two disagree the later, more specific one wins.")
	for _, f := range files {
		b.WriteString("\n\n<memory path=\"" + strings.ReplaceAll(f.Path, `"`, "&quot;") + "\" kind=\"" + kindDescriptions[f.Kind] + "\">\n")
		b.WriteString(strings.TrimSpace(f.Content))
		if f.Truncated {
			b.WriteString("\n[truncated: only the first 40 KB of this file is shown; read the file for the rest]")
		}
		b.WriteString("\n</memory>")
	}
	return b.String()
}

// MemoryText returns the memory files for cwd rendered as the system prompt
// shows them, or "" when there are none; compaction carries it over verbatim.
func MemoryText(cwd string) string {
	return memorySection(MemoryFiles(cwd))
}
