package tool

import (
	"slices"
	"testing"
)

func TestFindHonoursAliases(t *testing.T) {
	def := sampleDef()
	def.Name, def.Aliases = "Agent", []string{"Task"}
	pool := []Tool{MustBuild(def)}
	if Find(pool, "Task") == nil || Find(pool, "Agent") == nil || Find(pool, "Other") != nil {
		t.Error("Find does not resolve names and aliases")
	}
}

func TestNamesKeepsPoolOrder(t *testing.T) {
	var pool []Tool
	for _, name := range []string{"Write", "Bash", "Read"} {
		def := sampleDef()
		def.Name = name
		pool = append(pool, MustBuild(def))
	}
	if got := Names(pool); !slices.Equal(got, []string{"Write", "Bash", "Read"}) {
		t.Errorf("Names = %v", got)
	}
}
