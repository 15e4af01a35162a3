// Package custom builds tools from the "tools" list of the settings files,
// so a user can give the model a tool without writing Go: each entry has a
// name, a description, a JSON input schema and a shell command. The command
// runs in the session's working directory with the model's input as JSON on
// stdin and each top-level field in $TOOL_INPUT_<FIELD>; what it prints is the
// result, and a non-zero exit is an error. The tools go through the same
// validate, permission and call pipeline as the built-ins: a tool not marked
// readOnly is asked about unless a rule allows it by name.
//
// A project's settings (its shared or local file) claim less than the user's
// own: their readOnly is not trusted, so such a tool always counts as writing,
// and they may not take a name of Claude Code's tools.
package custom

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// DefaultTimeout is how long a command may run when its entry sets no timeout.
const DefaultTimeout = 2 * time.Minute

// maxResultChars is the result size past which the result is stored on disk
// and the model gets a preview and the path, as for Bash.
const maxResultChars = 30_000

// emptySchema is the input schema of a tool whose entry gives none: no input.
const emptySchema = `{"type":"object","properties":{}}`

// Spec is one entry of a settings file's "tools" list.
type Spec struct {
	// Name is the tool's name: letters, digits, _ and -, at most 64; the
	// mcp__ prefix is reserved for MCP servers' tools.
	Name string `json:"name"`
	// Description is what the model reads about the tool.
	Description string `json:"description"`
	// InputSchema is the JSON schema of the input, sent to the model as it is;
	// none means the tool takes no input.
	InputSchema json.RawMessage `json:"inputSchema"`
	// Command is the bash command line to run.
	Command string `json:"command"`
	// ReadOnly says the command changes nothing: it then runs without asking
	// and in parallel with other read-only calls. Load honours it only in the
	// user's own settings.
	ReadOnly bool `json:"readOnly"`
	// Timeout is in seconds; 0 means DefaultTimeout.
	Timeout float64 `json:"timeout"`
	// DeferLoading leaves the tool out of the prompt until ToolSearch loads it.
	DeferLoading bool `json:"deferLoading"`
}

// New builds the tool spec describes.
func New(spec Spec) (tool.Tool, error) {
	var problems []error
	if strings.HasPrefix(spec.Name, "mcp__") {
		problems = append(problems, errors.New("names starting with mcp__ are reserved for MCP servers' tools"))
	}
	if strings.TrimSpace(spec.Command) == "" {
		problems = append(problems, errors.New(`"command" is required: the bash command line the tool runs`))
	}
	if spec.Timeout < 0 {
		problems = append(problems, fmt.Errorf(`"timeout" is %v; give the seconds the command may run, or leave it out for %v`, spec.Timeout, DefaultTimeout))
	}
	if len(problems) > 0 {
		return nil, errors.Join(problems...)
	}
	schema := spec.InputSchema
	if len(bytes.TrimSpace(schema)) == 0 || string(bytes.TrimSpace(schema)) == "null" {
		schema = json.RawMessage(emptySchema)
	}
	timeout := DefaultTimeout
	if spec.Timeout > 0 {
		timeout = time.Duration(spec.Timeout * float64(time.Second))
	}
	c := &command{name: spec.Name, line: spec.Command, timeout: timeout}
	readOnly := func(json.RawMessage) bool { return spec.ReadOnly }
	t, err := tool.BuildRaw(tool.Def[json.RawMessage, string]{
		Name:               spec.Name,
		Description:        spec.Description,
		MaxResultSizeChars: maxResultChars,
		ShouldDefer:        spec.DeferLoading,
		IsReadOnly:         readOnly,
		IsConcurrencySafe:  readOnly,
		Call:               c.run,
	}, schema)
	if err != nil {
		return nil, errors.Unwrap(err)
	}
	return t, nil
}

// Load builds the tools the settings files define, in order of precedence: a
// later file's tool replaces an earlier one of the same name. An entry that
// cannot be built is reported, naming its file, and left out. A tool of any
// file but the user's own (config.ScopeUser) is never read-only, whatever it
// says, and one named like a Claude Code tool or like one of the user's own
// tools (whose allow rules it would inherit) is reported and left out.
func Load(files []config.File) ([]tool.Tool, []error) {
	var ts []tool.Tool
	var problems []error
	var users []string
	for _, f := range files {
		if len(bytes.TrimSpace(f.Tools)) == 0 || string(bytes.TrimSpace(f.Tools)) == "null" {
			continue
		}
		var entries []json.RawMessage
		if err := json.Unmarshal(f.Tools, &entries); err != nil {
			problems = append(problems, fmt.Errorf("settings %s: \"tools\" must be a list of tool definitions: %v", f.Path, err))
			continue
		}
		for i, raw := range entries {
			t, err := parse(raw, f.Scope == config.ScopeUser)
			if err != nil {
				problems = append(problems, fmt.Errorf("settings %s: tools[%d]: %w; the tool is left out", f.Path, i, err))
				continue
			}
			if f.Scope != config.ScopeUser && slices.Contains(users, t.Name()) {
				problems = append(problems, fmt.Errorf("settings %s: tools[%d]: %q is the name of a tool of your own settings, "+
					"which a folder's tool may not replace; the tool is left out", f.Path, i, t.Name()))
				continue
			}
			if f.Scope == config.ScopeUser {
				users = append(users, t.Name())
			}
			ts = slices.DeleteFunc(ts, func(old tool.Tool) bool { return old.Name() == t.Name() })
			ts = append(ts, t)
		}
	}
	return ts, problems
}

// parse reads one entry, refusing keys that are not part of a Spec, so a
// misspelt key is reported rather than ignored. An entry of a file that is
// not the user's own claims less: see Load.
func parse(raw json.RawMessage, users bool) (tool.Tool, error) {
	var spec Spec
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&spec); err != nil {
		return nil, fmt.Errorf("%v (the keys are name, description, inputSchema, command, readOnly, timeout, deferLoading)", err)
	}
	if !users {
		if reserved(spec.Name) {
			return nil, fmt.Errorf("%q is the name of a built-in or Claude Code tool, kept for tools of that meaning: a project's settings may not define it (rename the tool)", spec.Name)
		}
		spec.ReadOnly = false
	}
	t, err := New(spec)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", spec.Name, err)
	}
	return t, nil
}
