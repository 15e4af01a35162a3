package grep

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/mini-claude/mini-claude/internal/credentials"
)

// rgArgs are the ripgrep arguments for a query: Claude Code's (hidden files,
// no symbolic links, no VCS folders) without a user configuration file, and
// the output a mode parses: file names, counts, or JSON for content.
func rgArgs(q *query) []string {
	args := []string{"--no-config", "--hidden", "--no-follow"}
	if q.isDir {
		for _, g := range q.walkGlobs() {
			args = append(args, "--glob", g)
		}
	}
	if q.multiline {
		args = append(args, "-U", "--multiline-dotall")
	}
	if q.ignoreCase {
		args = append(args, "-i")
	}
	switch q.mode {
	case modeFiles:
		args = append(args, "-l", "--null")
	case modeCount:
		args = append(args, "-c", "-H", "--null")
	default:
		args = append(args, "--json", "-A", strconv.Itoa(q.after), "-B", strconv.Itoa(q.before))
	}
	if q.fileType != "" && q.isDir {
		args = append(args, "--type", q.fileType)
	}
	args = append(args, "-e", q.pattern, "--")
	if q.isDir {
		return append(args, ".")
	}
	return append(args, q.target)
}

// searchRipgrep runs rg and parses its output into results. rg reads no
// credential, so it gets none of mini-claude's, even one the user's settings
// pass to commands.
func searchRipgrep(ctx context.Context, rg string, q *query) ([]fileResult, error) {
	cmd := exec.CommandContext(ctx, rg, rgArgs(q)...)
	cmd.Env = credentials.ChildEnv(os.Environ(), nil)
	cmd.Dir = q.target
	if !q.isDir {
		cmd.Dir = filepath.Dir(q.target)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("run ripgrep: %w", err)
	}
	files, parseErr := parseOutput(bufio.NewReaderSize(stdout, 64<<10), q)
	if parseErr != nil {
		io.Copy(io.Discard, stdout)
	}
	waitErr := cmd.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	var exit *exec.ExitError
	switch {
	case parseErr != nil:
		return nil, fmt.Errorf("read ripgrep's output: %w", parseErr)
	case waitErr == nil:
	case errors.As(waitErr, &exit) && exit.ExitCode() == 1:
	case errors.As(waitErr, &exit) && exit.ExitCode() == 2 && len(files) > 0:
		// Some files could not be read; rg searched the others.
	default:
		return nil, rgFailure(q.pattern, strings.TrimSpace(stderr.String()), waitErr)
	}
	return files, nil
}

func rgFailure(pattern, stderr string, err error) error {
	switch {
	case strings.Contains(stderr, "regex parse error") || strings.Contains(stderr, "error parsing regex"):
		return invalidPattern(pattern, stderr)
	case strings.Contains(stderr, `the literal '"\n"' is not allowed`):
		return errNewlineInPattern
	case stderr == "":
		return fmt.Errorf("ripgrep failed: %w", err)
	}
	return fmt.Errorf("ripgrep failed: %s", stderr)
}

// parseOutput reads what rg printed for the query's mode.
func parseOutput(r *bufio.Reader, q *query) ([]fileResult, error) {
	switch q.mode {
	case modeContent:
		return parseJSON(r, q)
	case modeFiles:
		return parseFiles(r, q)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var files []fileResult
	for len(data) > 0 {
		name, rest, ok := bytes.Cut(data, []byte{0})
		if !ok {
			break
		}
		digits, after, _ := bytes.Cut(rest, newline)
		f := fileResult{path: q.relative(name), binaryOffset: -1}
		f.count, _ = strconv.Atoi(string(digits))
		files = append(files, f)
		data = after
	}
	return files, nil
}

// statWorkers is how many batches of files are statted at once while rg
// runs, and statBatch how many names a batch holds at most.
const statWorkers = 8

const statBatch = 128

// parseFiles reads the NUL-separated file names of rg -l and looks up each
// file's modification time as it arrives, while rg is still searching. Names
// go to the workers in batches, whenever a batch is full or rg has printed
// nothing more yet, so tens of thousands of files cost a few hundred hand-offs.
func parseFiles(r *bufio.Reader, q *query) ([]fileResult, error) {
	batches := make(chan []string, statWorkers)
	var mu sync.Mutex
	var files []fileResult
	var wg sync.WaitGroup
	for range statWorkers {
		wg.Go(func() {
			for batch := range batches {
				dated := make([]fileResult, len(batch))
				for i, rel := range batch {
					dated[i] = fileResult{path: rel, count: 1, binaryOffset: -1, modTime: pathModTime(q.absolute(rel))}
				}
				mu.Lock()
				files = append(files, dated...)
				mu.Unlock()
			}
		})
	}
	var batch []string
	var readErr error
	for {
		name, err := r.ReadBytes(0)
		if len(name) > 1 && err == nil {
			batch = append(batch, q.relative(name[:len(name)-1]))
		}
		if len(batch) > 0 && (len(batch) == statBatch || r.Buffered() == 0 || err != nil) {
			batches <- batch
			batch = nil
		}
		if err != nil {
			if err != io.EOF {
				readErr = err
			}
			break
		}
	}
	close(batches)
	wg.Wait()
	return files, readErr
}

// relative turns a path rg printed into a result path.
func (q *query) relative(name []byte) string {
	if !q.isDir {
		return ""
	}
	return string(bytes.TrimPrefix(name, []byte("./")))
}

// ripgrep returns the rg to run, or "" for the built-in search: the
// MINI_CLAUDE_GREP_ENGINE variable picks "rg" or "builtin", and by default rg
// runs when it is on PATH.
func ripgrep(getenv func(string) string) (string, error) {
	engine := getenv(EngineEnv)
	switch engine {
	case "builtin":
		return "", nil
	case "", "rg":
		path, err := exec.LookPath("rg")
		if err != nil && engine == "rg" {
			return "", fmt.Errorf("%s=rg but rg is not on PATH: install ripgrep, or unset %s to use the built-in search", EngineEnv, EngineEnv)
		}
		return path, nil
	}
	return "", fmt.Errorf("%s=%q: use rg or builtin", EngineEnv, engine)
}
