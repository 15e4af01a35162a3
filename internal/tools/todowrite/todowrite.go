// Package todowrite is the TodoWrite tool: the model keeps the session's todo
// list with it, replacing the whole list on each call. The list lives in the
// tool.Session, where compaction and the terminal UI read it with List.
package todowrite

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// The statuses of an item.
const (
	Pending    = "pending"
	InProgress = "in_progress"
	Completed  = "completed"
)

// Item is one entry of the todo list, in Claude Code's shape.
type Item struct {
	Content    string `json:"content" jsonschema:"minLength=1"`
	Status     string `json:"status" jsonschema:"enum=pending,enum=in_progress,enum=completed"`
	ActiveForm string `json:"activeForm" jsonschema:"minLength=1"`
}

// Input is what the model sends; the schema is Claude Code's.
type Input struct {
	Todos []Item `json:"todos" jsonschema_description:"The updated todo list"`
}

// Output is the list before and after the call, as Claude Code reports it in
// stream-json's tool_use_result.
type Output struct {
	OldTodos []Item `json:"oldTodos"`
	NewTodos []Item `json:"newTodos"`
}

// successText is Claude Code's result text, word for word.
const successText = "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable"

const description = `Replaces the todo list of this session: send the whole updated list each time. Use it for work of three or more steps, or when the user gives several tasks, so the user can follow your progress; skip it for a single simple task.

Each item has:
- content: what to do, in the imperative ("Run the tests")
- activeForm: the same in the present continuous, shown while it runs ("Running the tests")
- status: pending, in_progress or completed

How to keep it:
- Keep exactly one item in_progress while you work: mark an item in_progress before you start it, and completed as soon as it is done, without batching completions.
- Mark an item completed only when it is fully done: not while tests fail, the change is partial or an error is unresolved. When blocked, keep it in_progress and add an item for what must be resolved.
- Remove items that are no longer relevant.
- When every item is completed the list is cleared.
- The list survives compaction of the conversation, so it is the place to keep track of long work.`

// Tool is the TodoWrite tool.
var Tool = tool.MustBuild(tool.Def[Input, Output]{
	Name:               "TodoWrite",
	SearchHint:         "manage the session task checklist",
	Description:        description,
	MaxResultSizeChars: 100_000,
	// It changes only the session's own list, so plan mode allows it.
	IsReadOnly:        tool.Always[Input],
	IsConcurrencySafe: tool.Never[Input],
	ValidateInput:     validate,
	CheckPermissions:  allow,
	Call:              write,
	MapResult:         toBlocks,
})

func allow(context.Context, Input, *tool.Env) tool.PermissionResult {
	return tool.PermissionResult{Behavior: tool.Allow, Message: "TodoWrite only updates the session's todo list"}
}

func validate(_ context.Context, in Input, _ *tool.Env) error {
	for i, item := range in.Todos {
		var missing []string
		if strings.TrimSpace(item.Content) == "" {
			missing = append(missing, "content")
		}
		if strings.TrimSpace(item.ActiveForm) == "" {
			missing = append(missing, "activeForm")
		}
		if len(missing) > 0 {
			return fmt.Errorf("todos[%d] has an empty %s; give every item a content (imperative: \"Run the tests\") and an activeForm (present continuous: \"Running the tests\")",
				i, strings.Join(missing, " and "))
		}
	}
	return nil
}

func write(_ context.Context, in Input, env *tool.Env, _ tool.Progress) (Output, error) {
	l := listOf(env.Session)
	l.mu.Lock()
	defer l.mu.Unlock()
	old := l.items
	next := slices.Clone(in.Todos)
	if next == nil {
		next = []Item{}
	}
	if allCompleted(next) {
		l.items = nil
	} else {
		l.items = next
	}
	if old == nil {
		old = []Item{}
	}
	return Output{OldTodos: old, NewTodos: next}, nil
}

func allCompleted(items []Item) bool {
	for _, item := range items {
		if item.Status != Completed {
			return false
		}
	}
	return true
}

// toBlocks returns Claude Code's success text, with a reminder when the list
// does not have exactly one item in progress.
func toBlocks(out Output) []llm.ContentBlock {
	blocks := []llm.ContentBlock{llm.TextBlock(successText)}
	if allCompleted(out.NewTodos) {
		return blocks
	}
	switch n := countStatus(out.NewTodos, InProgress); {
	case n == 0:
		blocks = append(blocks, llm.TextBlock("No item is in_progress: mark the one you work on now as in_progress."))
	case n > 1:
		blocks = append(blocks, llm.TextBlock(fmt.Sprintf("%d items are in_progress: keep exactly one in_progress, the one you work on now.", n)))
	}
	return blocks
}

func countStatus(items []Item, status string) int {
	n := 0
	for _, item := range items {
		if item.Status == status {
			n++
		}
	}
	return n
}

// list is the session's todo list.
type list struct {
	mu    sync.Mutex
	items []Item
}

type listKey struct{}

func listOf(s *tool.Session) *list {
	return tool.Value(s, listKey{}, func() *list { return &list{} })
}

// List returns a copy of the session's todo list, empty when the model has
// kept none or completed every item.
func List(s *tool.Session) []Item {
	l := listOf(s)
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.items)
}

// Format renders items one a line, "1. [in_progress] Run the tests", for
// messages the model reads.
func Format(items []Item) string {
	return strings.Join(formatLines(items), "\n")
}

func formatLines(items []Item) []string {
	lines := make([]string, len(items))
	for i, item := range items {
		lines[i] = fmt.Sprintf("%d. [%s] %s", i+1, item.Status, item.Content)
	}
	return lines
}

// Carry is the todo list as a compaction carries it over, in the form Format gives.
func (l *list) Carry([]string) tool.Section {
	l.mu.Lock()
	defer l.mu.Unlock()
	return tool.Section{Tag: "todo-list", Lines: formatLines(l.items)}
}
