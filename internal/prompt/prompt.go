// Package prompt builds the system prompt: mini-claude's standing instructions,
// guidance for the tools on offer, the environment block and the user's memory
// files (CLAUDE.md, AGENTS.md).
package prompt

import (
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/permission"
)

// Options is everything Build needs; given the same Options and the same files
// on disk, Build returns the same prompt.
type Options struct {
	// Cwd is the working directory; a relative path is resolved against the process's.
	Cwd string
	// AdditionalDirs are further directories the user allowed the agent to work in.
	AdditionalDirs []string
	// Model is the name of the model the prompt is sent to.
	Model string
	// ToolNames are the tools the model can call; guidance is given only for these.
	ToolNames []string
	// Now is the current time, whose date goes into the environment block.
	Now time.Time
	// Override, when not empty, replaces the whole built prompt (--system-prompt).
	Override string
	// Append is added after the prompt, built or overridden (--append-system-prompt).
	Append string
	// Permissions are the Read rules memory files are read through, as the
	// Read tool reads: deny rules and the secret defaults. Nil applies the
	// secret defaults alone.
	Permissions *permission.Context
	// Memory, when set, is the memory files as the session loaded them
	// (LoadMemory), used in place of reading them again.
	Memory *Memory
}

// Build returns the system prompt for opts. It reads the memory files (unless
// opts.Memory holds them), the git HEAD and the OS version from disk, and
// never fails: what it cannot read it leaves out.
func Build(opts Options) string {
	return build(opts, host{platform: runtime.GOOS, osVersion: osVersion(), home: config.Home()})
}

// host is what Build learns about the machine outside Options, kept apart so
// tests can fix it.
type host struct {
	platform  string
	osVersion string
	home      string
}

func build(opts Options, h host) string {
	var sections []string
	if opts.Override != "" {
		sections = append(sections, opts.Override)
	} else {
		cwd := absDir(opts.Cwd)
		sections = append(sections, identity, howToWork)
		if tools := toolSection(opts.ToolNames); tools != "" {
			sections = append(sections, tools)
		}
		sections = append(sections, toneAndSafety, envSection(opts, cwd, h))
		if memory := memoryOf(opts, cwd, h).Text(); memory != "" {
			sections = append(sections, memory)
		}
	}
	if opts.Append != "" {
		sections = append(sections, opts.Append)
	}
	return strings.Join(sections, "\n\n")
}

// BuildSubAgent returns the system prompt of a sub-agent: its role (the
// agent type's prompt) in place of mini-claude's standing instructions, then
// the guidance for its tools, the environment block and the memory files.
func BuildSubAgent(role string, opts Options) string {
	h := host{platform: runtime.GOOS, osVersion: osVersion(), home: config.Home()}
	cwd := absDir(opts.Cwd)
	sections := []string{role}
	if tools := toolSection(opts.ToolNames); tools != "" {
		sections = append(sections, tools)
	}
	sections = append(sections, envSection(opts, cwd, h))
	if memory := memoryOf(opts, cwd, h).Text(); memory != "" {
		sections = append(sections, memory)
	}
	return strings.Join(sections, "\n\n")
}

// memoryOf returns the memory files given in opts, or reads them.
func memoryOf(opts Options, cwd string, h host) Memory {
	if opts.Memory != nil {
		return *opts.Memory
	}
	return loadMemory(cwd, h.home, opts.Permissions)
}

// absDir returns dir as a clean absolute path, or cleaned as is if the process's
// working directory is unknown.
func absDir(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return filepath.Clean(dir)
	}
	return abs
}
