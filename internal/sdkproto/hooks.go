package sdkproto

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mini-claude/mini-claude/internal/hooks"
)

// hookCallback is the question that runs one of the program's hooks.
type hookCallback struct {
	Subtype    string          `json:"subtype"`
	CallbackID string          `json:"callback_id"`
	Input      json.RawMessage `json:"input"`
	ToolUseID  string          `json:"tool_use_id,omitempty"`
}

// Hooks turns the hook callbacks the program registered into hooks of the
// hook engine, one per callback id, each run a hook_callback round trip
// whose answer is read as a command hook's JSON output. Events are taken in
// hooks.Events order, so the result does not depend on map order.
func Hooks(c *Conn, registered map[string][]HookMatcher) []hooks.Hook {
	var out []hooks.Hook
	for _, event := range hooks.Events {
		for _, m := range registered[event] {
			timeout := hooks.DefaultTimeout
			if m.Timeout > 0 {
				timeout = time.Duration(m.Timeout * float64(time.Second))
			}
			for _, id := range m.HookCallbackIDs {
				out = append(out, hooks.Hook{Event: event, Matcher: m.Matcher, Command: "sdk callback " + id, Timeout: timeout,
					Source: "the Agent SDK program", Callback: callback(c, id)})
			}
		}
	}
	return out
}

// callback runs the program's hook id.
func callback(c *Conn, id string) func(ctx context.Context, input []byte) ([]byte, error) {
	return func(ctx context.Context, input []byte) ([]byte, error) {
		var in struct {
			ToolUseID string `json:"tool_use_id"`
		}
		_ = json.Unmarshal(input, &in)
		body, err := c.Request(ctx, hookCallback{Subtype: "hook_callback", CallbackID: id, Input: input, ToolUseID: in.ToolUseID})
		if err != nil {
			return nil, fmt.Errorf("hook callback %s: %w", id, err)
		}
		return body, nil
	}
}
