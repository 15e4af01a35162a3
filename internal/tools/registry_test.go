package tools

import (
	"context"
	"slices"
	"testing"

	"github.com/mini-claude/mini-claude/internal/permission"
	"github.com/mini-claude/mini-claude/internal/tool"
)

type empty struct{}

func fakeTool(name string, aliases ...string) tool.Tool {
	return tool.MustBuild(tool.Def[empty, string]{
		Name: name, Aliases: aliases, Description: name + " tool", MaxResultSizeChars: 100,
		IsReadOnly: tool.Never[empty], IsConcurrencySafe: tool.Never[empty],
		Call: func(context.Context, empty, *tool.Env, tool.Progress) (string, error) { return name, nil },
	})
}

func withBuiltins(t *testing.T, ts ...tool.Tool) {
	saved := builtins
	builtins = ts
	t.Cleanup(func() { builtins = saved })
}

func rules(t *testing.T, texts ...string) []permission.Rule {
	rs, errs := permission.ParseRuleList(texts, "test")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return rs
}

func TestEnabled(t *testing.T) {
	withBuiltins(t, fakeTool("Write"), fakeTool("Bash"), fakeTool("Read"), fakeTool("Edit"), fakeTool("Glob"))
	tests := []struct {
		name   string
		perm   permission.Context
		only   []string
		simple bool
		want   []string
	}{
		{"all, sorted", permission.Context{}, nil, false, []string{"Bash", "Edit", "Glob", "Read", "Write"}},
		{"deny by name removes", permission.Context{Deny: rules(t, "Write", "Glob")}, nil, false, []string{"Bash", "Edit", "Read"}},
		{"content deny keeps the tool", permission.Context{Deny: rules(t, "Bash(rm:*)")}, nil, false, []string{"Bash", "Edit", "Glob", "Read", "Write"}},
		{"only", permission.Context{}, []string{"Read", "Glob"}, false, []string{"Glob", "Read"}},
		{"only none", permission.Context{}, []string{}, false, nil},
		{"simple mode", permission.Context{}, nil, true, []string{"Bash", "Edit", "Read"}},
		{"simple mode and deny", permission.Context{Deny: rules(t, "Bash")}, nil, true, []string{"Edit", "Read"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.simple {
				t.Setenv(SimpleEnv, "1")
			}
			if got := tool.Names(Enabled(&tt.perm, tt.only)); !slices.Equal(got, tt.want) {
				t.Errorf("Enabled = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAssemblePool(t *testing.T) {
	withBuiltins(t, fakeTool("Read"), fakeTool("Bash"))
	shadow := fakeTool("Read")
	extra := []tool.Tool{fakeTool("mcp__gh__list"), shadow, fakeTool("mcp__fs__read"), fakeTool("mcp__gh__create")}
	perm := permission.Context{Deny: rules(t, "mcp__fs")}
	pool := AssemblePool(&perm, nil, extra)
	if got, want := tool.Names(pool), []string{"Bash", "Read", "mcp__gh__create", "mcp__gh__list"}; !slices.Equal(got, want) {
		t.Errorf("pool = %v, want %v", got, want)
	}
	if tool.Find(pool, "Read") == shadow {
		t.Error("an extra tool replaced the built-in of the same name")
	}
}
