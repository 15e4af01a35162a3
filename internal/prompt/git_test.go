package prompt

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindGit(t *testing.T) {
	const hash = "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		name  string
		files map[string]string // relative to the test root
		cwd   string
		want  repo // root relative to the test root
	}{
		{
			name:  "branch, from a subdirectory",
			files: map[string]string{"r/.git/HEAD": "ref: refs/heads/feature/x\n", "r/a/b/keep": ""},
			cwd:   "r/a/b",
			want:  repo{root: "r", branch: "feature/x"},
		},
		{
			name:  "detached HEAD",
			files: map[string]string{"r/.git/HEAD": hash + "\n"},
			cwd:   "r",
			want:  repo{root: "r", commit: "0123456"},
		},
		{
			name: "worktree: .git file with a relative gitdir",
			files: map[string]string{
				"main/.git/HEAD":              "ref: refs/heads/main\n",
				"main/.git/worktrees/wt/HEAD": "ref: refs/heads/topic\n",
				"wt/.git":                     "gitdir: ../main/.git/worktrees/wt\n",
			},
			cwd:  "wt",
			want: repo{root: "wt", branch: "topic"},
		},
		{
			name: "submodule: .git file with a gitdir, detached",
			files: map[string]string{
				"super/.git/HEAD":             "ref: refs/heads/main\n",
				"super/.git/modules/sub/HEAD": hash,
				"super/sub/.git":              "gitdir: ../.git/modules/sub",
			},
			cwd:  "super/sub",
			want: repo{root: "super/sub", commit: "0123456"},
		},
		{
			name: "a .git without a HEAD is passed over",
			files: map[string]string{
				"outer/.git/HEAD":        "ref: refs/heads/trunk",
				"outer/inner/.git/index": "",
			},
			cwd:  "outer/inner",
			want: repo{root: "outer", branch: "trunk"},
		},
		{
			name: "a .git file that is not a gitdir pointer is passed over",
			files: map[string]string{
				"outer/.git/HEAD":   "ref: refs/heads/trunk",
				"outer/inner/.git":  "garbage",
				"outer/inner/x.txt": "",
			},
			cwd:  "outer/inner",
			want: repo{root: "outer", branch: "trunk"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for rel, content := range tt.files {
				writeFile(t, filepath.Join(root, rel), content)
			}
			if err := os.MkdirAll(filepath.Join(root, tt.cwd), 0o755); err != nil {
				t.Fatal(err)
			}
			got, ok := findGit(filepath.Join(root, tt.cwd))
			want := tt.want
			want.root = filepath.Join(root, want.root)
			if !ok || got != want {
				t.Fatalf("findGit = %+v, %v; want %+v", got, ok, want)
			}
		})
	}
}

func TestFindGitAbsoluteGitdir(t *testing.T) {
	root := t.TempDir()
	gitDir := filepath.Join(root, "elsewhere", "wt")
	writeFile(t, filepath.Join(gitDir, "HEAD"), "ref: refs/heads/abs\n")
	writeFile(t, filepath.Join(root, "wt", ".git"), "gitdir: "+gitDir+"\n")
	got, ok := findGit(filepath.Join(root, "wt"))
	if want := (repo{root: filepath.Join(root, "wt"), branch: "abs"}); !ok || got != want {
		t.Fatalf("findGit = %+v, %v; want %+v", got, ok, want)
	}
}

func TestFindGitNone(t *testing.T) {
	root := t.TempDir()
	got, ok := findGit(root)
	// The test directory holds no repository; one above it (if any) is not ours to check.
	if ok && (got.root == root || len(got.root) > len(root)) {
		t.Fatalf("findGit = %+v in an empty directory", got)
	}
}
