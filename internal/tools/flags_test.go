package tools

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryToolStatesItsSafetyFlags walks the source of every tool package and
// fails when a tool.Def leaves IsReadOnly or IsConcurrencySafe to the default:
// the defaults are safe, but a tool's author must have decided.
func TestEveryToolStatesItsSafetyFlags(t *testing.T) {
	roots := []string{".", filepath.Join("..", "..", "examples")}
	defs := 0
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			file, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(file, func(n ast.Node) bool {
				lit, ok := n.(*ast.CompositeLit)
				if !ok || !isToolDef(lit.Type) {
					return true
				}
				defs++
				keys := map[string]bool{}
				name := "?"
				for _, elt := range lit.Elts {
					kv, ok := elt.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					if ident, ok := kv.Key.(*ast.Ident); ok {
						keys[ident.Name] = true
						if ident.Name == "Name" {
							if s, ok := kv.Value.(*ast.BasicLit); ok {
								name = s.Value
							}
						}
					}
				}
				for _, flag := range []string{"IsReadOnly", "IsConcurrencySafe"} {
					if !keys[flag] {
						t.Errorf("%s: tool %s does not state %s", path, name, flag)
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if defs == 0 {
		t.Fatal("found no tool.Def literals; the walk is looking in the wrong place")
	}
}

// isToolDef reports whether expr is tool.Def[In, Out].
func isToolDef(expr ast.Expr) bool {
	index, ok := expr.(*ast.IndexListExpr)
	if !ok {
		return false
	}
	sel, ok := index.X.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "tool" && sel.Sel.Name == "Def"
}
