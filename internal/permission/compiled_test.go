package permission

import "testing"

// The compiled matcher must agree with the plain pattern match it shortcuts.
func TestCompiledPathMatchAgreesWithPattern(t *testing.T) {
	base, home := "/home/u/proj", "/home/u"
	contents := []string{"./secret/**", "secret/**", "/src/*.go", "*.md", ".env", "//etc/**", "~/.ssh/**", "docs/", "./a/**/b",
		"./{x,y}/**", "src/[ab].go", "~", "//tmp/*", "//", "/"}
	paths := []string{"/home/u/proj/secret", "/home/u/proj/secret/a", "/home/u/proj/SECRET/a", "/home/u/proj/src/m.go",
		"/home/u/proj/src/deep/m.go", "/home/u/proj/README.md", "/home/u/proj/x/.env", "/home/u/proj/.ENV", "/etc/passwd",
		"/home/u/.ssh/id_rsa", "/home/u/proj/docs/x", "/home/u/proj/a/b", "/home/u/proj/a/c/b/d", "/home/u/proj/x/1",
		"/home/u/proj/src/a.go", "/home/u/projx/secret/a", "/tmp/f", "/home/u/notes"}
	for _, content := range contents {
		r, err := ParseRule("Read("+content+")", "test")
		if err != nil {
			t.Fatal(err)
		}
		r.Base = base
		for _, path := range paths {
			for _, fold := range []bool{false, true} {
				want := matchPath(pathPattern(content, base, home), path, fold)
				if got := matchRulePath(&r, home, path, fold); got != want {
					t.Errorf("Read(%s) on %s (fold %v) = %v, want %v", content, path, fold, got, want)
				}
			}
		}
	}
}
