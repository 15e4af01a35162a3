package reaper

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// treeScript starts, besides itself, a background job, a process in a
// session of its own and a double-forked daemon, writing each pid to the
// file pids, then sleeps; after a second it would touch the file late.
const treeScript = `sleep 100 & echo $! >> pids
setsid sleep 100 & echo $! >> pids
( setsid sleep 100 & echo $! >> pids )
echo $$ >> pids
sleep 1; touch late; sleep 100`

func bash(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	return path
}

func TestStartReportsHowTheProcessEnded(t *testing.T) {
	sh := bash(t)
	for _, tc := range []struct {
		name, script string
		want         string
	}{
		{"exit status", "exit 3", "exit status 3"},
		{"success", "true", "exit status 0"},
		{"signal", "kill -TERM $$", "signal: terminated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Start(Spec{Path: sh, Args: []string{"bash", "-c", tc.script}, Env: os.Environ()})
			if err != nil {
				t.Fatal(err)
			}
			status, err := p.Wait()
			if err != nil {
				t.Fatal(err)
			}
			if got := Describe(status); got != tc.want {
				t.Errorf("ended with %q, want %q", got, tc.want)
			}
		})
	}
}

func TestStartPassesDescriptorsDirectoryAndEnvironment(t *testing.T) {
	dir := t.TempDir()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	extraR, extraW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p, err := Start(Spec{Path: bash(t), Args: []string{"bash", "-c", `echo "$PWD $GREETING"; echo extra >&3`},
		Env: []string{"GREETING=hello"}, Dir: dir, Files: []*os.File{nil, w, w, extraW}})
	w.Close()
	extraW.Close()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	out := make([]byte, 512)
	n, _ := r.Read(out)
	real, _ := filepath.EvalSymlinks(dir)
	if got := strings.TrimSpace(string(out[:n])); got != dir+" hello" && got != real+" hello" {
		t.Errorf("stdout %q, want %q", got, dir+" hello")
	}
	n, _ = extraR.Read(out)
	if got := string(out[:n]); got != "extra\n" {
		t.Errorf("descriptor 3 got %q", got)
	}
}

func TestStartFailsWithTheSystemsError(t *testing.T) {
	_, err := Start(Spec{Path: bash(t), Args: []string{"bash"}, Dir: filepath.Join(t.TempDir(), "gone")})
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v, want one that is os.ErrNotExist", err)
	}
	_, err = Start(Spec{Path: "/nonexistent/program", Args: []string{"program"}})
	if !errors.Is(err, syscall.ENOENT) {
		t.Errorf("err = %v, want ENOENT", err)
	}
}

func TestStartGivesTheProcessItsOwnSessionOrGroup(t *testing.T) {
	for _, tc := range []struct {
		name          string
		spec          Spec
		session, pgid bool
	}{
		{"setsid", Spec{Setsid: true}, true, true},
		{"setpgid", Spec{Setpgid: true}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := tc.spec
			spec.Path, spec.Args = bash(t), []string{"bash", "-c", "sleep 5"}
			p, err := Start(spec)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = syscall.Kill(p.Pid(), syscall.SIGKILL); _, _ = p.Wait() }()
			sid, _ := unix.Getsid(p.Pid())
			pgid, _ := syscall.Getpgid(p.Pid())
			if (sid == p.Pid()) != tc.session || (pgid == p.Pid()) != tc.pgid {
				t.Errorf("sid %d pgid %d for pid %d", sid, pgid, p.Pid())
			}
		})
	}
}

// TestParentDeathKillsTheWholeTree proves the point of the package: the
// parent (this test binary, run again as parentMode) starts a tree through
// the helper and is killed with SIGKILL; within a short bound no process of
// the tree runs, however it detached, and nothing it would have done later
// happens.
func TestParentDeathKillsTheWholeTree(t *testing.T) {
	if os.Getenv(parentMode) != "" {
		runParent(t)
		return
	}
	dir := t.TempDir()
	parent := exec.Command(os.Args[0], "-test.run=^TestParentDeathKillsTheWholeTree$")
	parent.Env = append(os.Environ(), parentMode+"="+dir)
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	pids := waitPids(t, dir, 4)
	if err := parent.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	killed := time.Now()
	waitDead(t, pids, 500*time.Millisecond)
	t.Logf("all %d processes gone %v after the SIGKILL", len(pids), time.Since(killed).Round(time.Millisecond))
	time.Sleep(1200 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(dir, "late")); err == nil {
		t.Error("the command went on after its parent was killed: it touched late")
	}
}

const parentMode = "MINI_CLAUDE_REAPER_TEST_PARENT"

func runParent(t *testing.T) {
	dir := os.Getenv(parentMode)
	if _, err := Start(Spec{Path: bash(t), Args: []string{"bash", "-c", treeScript}, Dir: dir, Env: os.Environ(), Setsid: true}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Minute)
}

// waitPids waits for n pids in dir/pids.
func waitPids(t *testing.T, dir string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(filepath.Join(dir, "pids"))
		if fields := strings.Fields(string(data)); len(fields) >= n {
			var pids []int
			for _, f := range fields {
				pid, err := strconv.Atoi(f)
				if err != nil {
					t.Fatal(err)
				}
				pids = append(pids, pid)
			}
			return pids
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("the command did not write %d pids", n)
	return nil
}

// waitDead polls until none of pids runs (zombies count as dead), failing after bound.
func waitDead(t *testing.T, pids []int, bound time.Duration) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for {
		var alive []int
		for _, pid := range pids {
			if running(pid) {
				alive = append(alive, pid)
			}
		}
		if len(alive) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("still running %v after the parent's death: %v", bound, alive)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// running reports whether pid exists and is not a zombie.
func running(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] != "Z"
}

// TestStartLeavesSignalsAsTheyWere checks that a command ignores the signals
// mini-claude ignores and no more: an ignored SIGPIPE, say, would make
// `yes | head` print an error instead of ending quietly.
func TestStartLeavesSignalsAsTheyWere(t *testing.T) {
	p, err := Start(Spec{Path: bash(t), Args: []string{"bash", "-c", "exec sleep 5"}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = syscall.Kill(p.Pid(), syscall.SIGKILL); _, _ = p.Wait() }()
	want := sigIgn(t, os.Getpid())
	deadline := time.Now().Add(5 * time.Second)
	for {
		comm, _ := os.ReadFile("/proc/" + strconv.Itoa(p.Pid()) + "/comm")
		if strings.TrimSpace(string(comm)) == "sleep" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the command did not exec sleep")
		}
		time.Sleep(time.Millisecond)
	}
	if got := sigIgn(t, p.Pid()); got != want {
		t.Errorf("the command ignores signals %s, mini-claude %s", got, want)
	}
}

func sigIgn(t *testing.T, pid int) string {
	t.Helper()
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "SigIgn:"); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatal("no SigIgn line")
	return ""
}
