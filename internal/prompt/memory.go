package prompt

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/workspace"
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

// Refusal is a memory file that was found but not read because the Read rules
// forbid it: a link out of the directory it was found in, into a device or
// process file, or to a path a deny rule or the secret defaults protect.
type Refusal struct {
	// Path is the memory file as found.
	Path string
	// Reason says why it was not read, as a clause: "it is a link to …".
	Reason string
}

// String is the refusal in one line, for the model and for a warning.
func (r Refusal) String() string {
	return r.Path + " was not read: " + r.Reason
}

// Memory is what loading the memory files found: the files read, in prompt
// order, and the ones refused.
type Memory struct {
	// Files are the memory files read, the most general first.
	Files []MemoryFile
	// Refused are the memory files found but not read, each once.
	Refused []Refusal
}

// Text renders the memory as the system prompt shows it, or "" when nothing
// was found; compaction carries it over verbatim.
func (m Memory) Text() string {
	return memorySection(m)
}

// LoadMemory reads the memory files for cwd: the user's <home>/CLAUDE.md, then
// each directory's files from the filesystem root down to cwd, so that more
// specific instructions come later. Each is read through the Read rules of
// perm (nil applies the secret defaults alone) and only when its real path
// stays within the directory it was found in (the per-user folder for the
// user's file); the others are refused. Unreadable and empty files are
// skipped, and a file reached twice (by symlink, or with the same content) is kept once.
func LoadMemory(cwd string, perm *permission.Context) Memory {
	return loadMemory(absDir(cwd), config.Home(), perm)
}

func loadMemory(cwd, home string, perm *permission.Context) Memory {
	c := collector{perm: perm}
	if c.perm == nil {
		c.perm = secretDefaults()
	}
	if home != "" {
		home = absDir(home)
		c.add(filepath.Join(home, "CLAUDE.md"), KindUser, home)
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
			c.add(filepath.Join(dir, f.name), f.kind, dir)
		}
	}
	return Memory{Files: c.files, Refused: c.refused}
}

// secretDefaults are the Read rules of a caller that passes none: no rules,
// the secret defaults under the user's home.
func secretDefaults() *permission.Context {
	home, _ := os.UserHomeDir()
	return &permission.Context{Home: home}
}

// collector accumulates memory files, each file and each content at most
// once, and the files it refused.
type collector struct {
	perm    *permission.Context
	files   []MemoryFile
	refused []Refusal
	seen    []os.FileInfo
	// realDirs caches the real paths of the directories files were found in
	// and of their ancestors, so each is resolved once per load.
	realDirs map[string]string
}

// add reads the memory file at path, found in the directory tree, unless the
// Read rules refuse it. Only its real path is opened, so what was checked is
// what is read.
func (c *collector) add(path, kind, tree string) {
	found, err := os.Lstat(path)
	if err != nil {
		return
	}
	real := c.realOf(path, found)
	if _, err := os.Stat(real); err != nil {
		return
	}
	if reason := c.refusal(path, real, tree, found.Mode()&fs.ModeSymlink != 0); reason != "" {
		if !slices.ContainsFunc(c.refused, func(r Refusal) bool { return r.Path == path }) {
			c.refused = append(c.refused, Refusal{Path: path, Reason: reason})
		}
		return
	}
	f, info, err := openRegular(real)
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

// realOf returns the real path of the file at path, which Lstat described as
// found: its directory's real path and its name, or, for a symlink, where the
// link leads.
func (c *collector) realOf(path string, found fs.FileInfo) string {
	if found.Mode()&fs.ModeSymlink != 0 {
		return workspace.RealPath(path)
	}
	return filepath.Join(c.realDir(filepath.Dir(path)), filepath.Base(path))
}

// realDir returns the real path of the absolute directory dir, from its
// parent's, which is resolved (and cached) first.
func (c *collector) realDir(dir string) string {
	if real, ok := c.realDirs[dir]; ok {
		return real
	}
	real := dir
	if parent := filepath.Dir(dir); parent != dir {
		info, err := os.Lstat(dir)
		if err == nil && info.Mode()&fs.ModeSymlink == 0 {
			real = filepath.Join(c.realDir(parent), filepath.Base(dir))
		} else {
			real = workspace.RealPath(dir)
		}
	}
	if c.realDirs == nil {
		c.realDirs = make(map[string]string)
	}
	c.realDirs[dir] = real
	return real
}

// pseudoFileSystems hold devices and processes' files (/proc/self/environ),
// never instructions.
var pseudoFileSystems = []string{"/proc", "/sys", "/dev"}

// refusal says why the memory file at path, whose real path is real, may not
// be read, or returns "" when it may: a real path in a pseudo file system or
// outside the tree the file was found in, or a read the deny rules or the
// secret defaults forbid, of the file as found or of what it leads to.
func (c *collector) refusal(path, real, tree string, link bool) string {
	it := "it"
	switch {
	case link:
		it = "it is a link to " + real + ", which"
	case real != path:
		it = "it resolves to " + real + ", which"
	}
	if slices.ContainsFunc(pseudoFileSystems, func(dir string) bool { return within(dir, real) }) {
		return it + " is a device or process file, not instructions"
	}
	if !within(c.realDir(tree), real) {
		return it + " is outside " + tree + ", where it was found"
	}
	for _, p := range []string{path, real} {
		if d, denied := c.perm.ReadRefusal(p); denied {
			return it + " is " + deniedBy(d)
		}
	}
	return ""
}

// deniedBy names what forbids a read: a deny rule, or the secret defaults.
func deniedBy(d permission.Decision) string {
	if d.Rule != nil {
		return fmt.Sprintf("protected by the deny rule %s (from %s)", d.Rule, d.Rule.Source)
	}
	return "protected as a secret (keys, credentials and .env files are never read by default)"
}

// within reports whether path is dir or lies below it; both are real paths.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
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

// memorySection renders the memory for the prompt, or "" when nothing was
// found: the files read, then a line for each file refused, so the model knows
// it was not given those instructions.
func memorySection(m Memory) string {
	if len(m.Files) == 0 && len(m.Refused) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("# Memory files\n\nThe user keeps instructions in the files below. Follow them: they override the defaults above, and where two disagree the later, more specific one wins.")
	for _, f := range m.Files {
		b.WriteString("\n\n<memory path=\"" + strings.ReplaceAll(f.Path, `"`, "&quot;") + "\" kind=\"" + kindDescriptions[f.Kind] + "\">\n")
		b.WriteString(strings.TrimSpace(f.Content))
		if f.Truncated {
			b.WriteString("\n[truncated: only the first 40 KB of this file is shown; read the file for the rest]")
		}
		b.WriteString("\n</memory>")
	}
	if len(m.Refused) > 0 {
		b.WriteString("\n\nThese memory files were not loaded, by the same rules the Read tool follows:")
		for _, r := range m.Refused {
			b.WriteString("\n- " + r.String())
		}
	}
	return b.String()
}
