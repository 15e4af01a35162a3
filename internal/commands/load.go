package commands

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/mini-claude/mini-claude/internal/config"
)

// Dir is a folder of commands (*.md files, subfolders naming namespaces) or
// of skills (one folder per skill, holding SKILL.md).
type Dir struct {
	Path string
	// Skills says the folder holds skills rather than commands.
	Skills bool
	// Scope is whose the folder's commands are.
	Scope Scope
}

// UserDirs returns the user's own folders, lowest precedence first: Claude
// Code's under home (~/.claude/commands, ~/.claude/skills), then
// mini-claude's per-user folder's.
func UserDirs(miniHome, home string) []Dir {
	var bases []string
	if home != "" {
		bases = append(bases, filepath.Join(home, ".claude"))
	}
	if miniHome != "" {
		bases = append(bases, miniHome)
	}
	var out []Dir
	for _, base := range bases {
		out = append(out, Dir{Path: filepath.Join(base, "commands"), Scope: User},
			Dir{Path: filepath.Join(base, "skills"), Skills: true, Scope: User})
	}
	return out
}

// ProjectDirs returns a project's folders, lowest precedence first:
// .claude's, then .mini-claude's, leaving out any that is one of the user's
// (a session in the home folder).
func ProjectDirs(project string, user []Dir) []Dir {
	var dirs []Dir
	for _, base := range []string{".claude", ".mini-claude"} {
		for _, d := range []Dir{{Path: filepath.Join(project, base, "commands"), Scope: Project},
			{Path: filepath.Join(project, base, "skills"), Skills: true, Scope: Project}} {
			if !slices.ContainsFunc(user, func(u Dir) bool { return u.Path == d.Path }) {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs
}

// Load reads the commands and skills of dirs, in order. A missing folder
// holds none; a file that cannot be read is reported and left out.
func Load(dirs []Dir) ([]Command, []error) {
	var cmds []Command
	var problems []error
	for _, d := range dirs {
		var found []Command
		var errs []error
		if d.Skills {
			found, errs = loadSkills(d)
		} else {
			found, errs = loadCommands(d)
		}
		cmds = append(cmds, found...)
		problems = append(problems, errs...)
	}
	return cmds, problems
}

// loadCommands reads every *.md file below a commands folder.
func loadCommands(d Dir) ([]Command, []error) {
	var cmds []Command
	var problems []error
	err := filepath.WalkDir(d.Path, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			if path == d.Path && errors.Is(err, fs.ErrNotExist) {
				return filepath.SkipDir
			}
			problems = append(problems, fmt.Errorf("command %s: %w", path, err))
			return nil
		}
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
			return nil
		}
		rel, _ := filepath.Rel(d.Path, path)
		name := strings.ReplaceAll(strings.TrimSuffix(filepath.ToSlash(rel), ".md"), "/", ":")
		c, err := readCommand(path, name, d.Scope)
		if err != nil {
			problems = append(problems, err)
			return nil
		}
		c.Alias = ""
		cmds = append(cmds, c)
		return nil
	})
	if err != nil {
		problems = append(problems, fmt.Errorf("commands in %s: %w", d.Path, err))
	}
	return cmds, problems
}

// loadSkills reads the SKILL.md of every folder of a skills folder.
func loadSkills(d Dir) ([]Command, []error) {
	entries, err := os.ReadDir(d.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{fmt.Errorf("skills in %s: %w", d.Path, err)}
	}
	var cmds []Command
	var problems []error
	for _, e := range entries {
		dir := filepath.Join(d.Path, e.Name())
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			continue
		}
		path := filepath.Join(dir, "SKILL.md")
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		c, err := readCommand(path, e.Name(), d.Scope)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		c.Skill, c.Dir = true, dir
		cmds = append(cmds, c)
	}
	return cmds, problems
}

// frontMatter is the YAML header of a command or skill.
type frontMatter struct {
	Name                   string `yaml:"name"`
	Description            string `yaml:"description"`
	WhenToUse              string `yaml:"when_to_use"`
	ArgumentHint           string `yaml:"argument-hint"`
	AllowedTools           any    `yaml:"allowed-tools"`
	Model                  string `yaml:"model"`
	DisableModelInvocation any    `yaml:"disable-model-invocation"`
	UserInvocable          any    `yaml:"user-invocable"`
}

// readCommand reads one markdown file: optional front matter between ---
// lines, then the body.
func readCommand(path, name string, scope Scope) (Command, error) {
	data, err := config.ReadSmallFile(path)
	if err != nil {
		return Command{}, fmt.Errorf("command %s: %w", path, err)
	}
	header, body := splitFrontMatter(string(data))
	var fm frontMatter
	if err := yaml.Unmarshal([]byte(header), &fm); err != nil {
		return Command{}, fmt.Errorf("command %s: front matter: %w", path, err)
	}
	c := Command{Name: name, Description: strings.TrimSpace(fm.Description), WhenToUse: strings.TrimSpace(fm.WhenToUse),
		ArgumentHint: strings.TrimSpace(fm.ArgumentHint), Model: strings.TrimSpace(fm.Model), Body: body, Path: path, Scope: scope,
		DisableModelInvocation: truthy(fm.DisableModelInvocation, false), UserInvocable: truthy(fm.UserInvocable, true)}
	if c.Description == "" {
		c.Description = firstLine(body, "Custom item")
	}
	if alias := strings.TrimSpace(fm.Name); alias != name && !strings.Contains(alias, ":") {
		c.Alias = alias
	}
	if c.Model == "inherit" {
		c.Model = ""
	}
	switch v := fm.AllowedTools.(type) {
	case string:
		c.AllowedTools = []string{v}
	case []any:
		for _, item := range v {
			if s, ok := item.(string); ok {
				c.AllowedTools = append(c.AllowedTools, s)
			}
		}
	}
	return c, nil
}

// truthy reads a boolean field written as true/false or "true"/"false".
func truthy(v any, otherwise bool) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return strings.EqualFold(strings.TrimSpace(v), "true") || (otherwise && !strings.EqualFold(strings.TrimSpace(v), "false"))
	}
	return otherwise
}

// splitFrontMatter cuts a file into its front matter and its body; a file
// that does not open with a --- line is all body.
func splitFrontMatter(text string) (header, body string) {
	text = strings.TrimPrefix(text, "\ufeff")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return "", text
	}
	if after, ok := strings.CutPrefix(rest, "---\n"); ok {
		return "", after
	}
	if h, b, found := strings.Cut(rest, "\n---\n"); found {
		return h, b
	}
	if h, found := strings.CutSuffix(rest, "\n---"); found {
		return h, ""
	}
	return "", text
}

// firstLine is the description Claude Code gives a command without one: the
// body's first non-blank line, a heading's text without its #s, at most 100
// characters; otherwise fallback.
func firstLine(body, fallback string) string {
	for line := range strings.SplitSeq(body, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if heading := strings.TrimLeft(line, "#"); heading != line && len(heading) > 1 && (heading[0] == ' ' || heading[0] == '\t') {
			if t := strings.TrimSpace(heading); t != "" {
				line = t
			}
		}
		if r := []rune(line); len(r) > 100 {
			line = string(r[:97]) + "..."
		}
		return line
	}
	return fallback
}
