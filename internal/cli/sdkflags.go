package cli

import (
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/mini-claude/mini-claude/internal/config"
)

// The input formats.
const (
	inputText       = "text"
	inputStreamJSON = "stream-json"
)

// SDK are the flags with which the Agent SDK starts the CLI, beyond those a
// headless run has.
type SDK struct {
	// InputFormat is text (the prompt from the arguments and stdin) or
	// stream-json (user messages and control requests on stdin, for the
	// life of the process).
	InputFormat string
	// PermissionPromptTool "stdio" asks the program (can_use_tool) what the
	// UI would ask its user.
	PermissionPromptTool string
	// AllowDangerouslySkipPermissions lets a session switch to
	// bypassPermissions; mini-claude needs no such consent, so it is accepted
	// and changes nothing.
	AllowDangerouslySkipPermissions bool
	// SettingSources, when SettingSourcesSet, are the settings files read:
	// user, project, local, comma-separated ("" for none).
	SettingSources    string
	SettingSourcesSet bool
	// IncludePartialMessages adds stream_event lines: the response as it streams.
	IncludePartialMessages bool
}

func addSDKFlags(fl *pflag.FlagSet, opts *Options) {
	fl.StringVar(&opts.InputFormat, "input-format", inputText, "Input: text (the prompt) or stream-json (user messages and control requests on stdin, as the Agent SDK sends them)")
	fl.StringVar(&opts.PermissionPromptTool, "permission-prompt-tool", "", `With --input-format stream-json: "stdio" asks the program whether a call may run`)
	fl.BoolVar(&opts.AllowDangerouslySkipPermissions, "allow-dangerously-skip-permissions", false, "Allow switching to bypassPermissions mode (accepted for the Agent SDK; mini-claude allows it anyway)")
	fl.StringVar(&opts.SettingSources, "setting-sources", "", `Settings files to read: user, project, local, comma-separated ("" for none; default all)`)
	fl.BoolVar(&opts.IncludePartialMessages, "include-partial-messages", false, "With --output-format stream-json: add stream_event lines as the response streams")
}

// settingSources keeps the settings files of the sources --setting-sources
// names.
func settingSources(files []config.File, sources string) []config.File {
	names := strings.FieldsFunc(sources, func(r rune) bool { return r == ',' || r == ' ' })
	return slices.DeleteFunc(slices.Clone(files), func(f config.File) bool { return !slices.Contains(names, f.Scope) })
}
