// Package filewalk walks a directory tree in parallel and picks its files the
// way ripgrep does: --glob patterns first, then .rgignore, .ignore,
// .gitignore, .git/info/exclude and git's global excludes (git's only inside a
// repository), then --type. Symbolic links are not followed and hidden files
// are included, as with rg --hidden --no-follow. Grep's built-in search and
// Glob both walk with it.
//
// The gitignore matcher is our own, written to ripgrep's ignore crate rules
// (Go's gitignore packages differ from ripgrep in precedence, anchoring or
// brace alternatives); patterns are matched with doublestar.
package filewalk

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"runtime"
	"sync"
)

// Options says which files a walk yields.
type Options struct {
	// Root is the absolute path of the directory to walk.
	Root string
	// Ignore honours ignore files (ripgrep's default); false is rg --no-ignore.
	Ignore bool
	// Globs are rg --glob patterns: "*.go" selects, "!vendor" excludes.
	Globs []string
	// Types are rg --type names such as "go" or "py".
	Types []string
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
}

// Walker is a compiled set of Options, ready to walk.
type Walker struct {
	opts    Options
	globs   *globSet
	types   *typeSet
	global  *ruleSet
	parents *dirIgnores
}

// New compiles opts. It fails on an unknown file type; globs that are not
// valid patterns are skipped, as ripgrep skips them.
func New(opts Options) (*Walker, error) {
	types, err := newTypeSet(opts.Types)
	if err != nil {
		return nil, err
	}
	w := &Walker{opts: opts, globs: newGlobSet(opts.Globs), types: types}
	if opts.Ignore {
		w.global = globalGitignore()
		w.parents = loadParents(opts.Root)
	}
	if w.opts.Workers <= 0 {
		w.opts.Workers = runtime.GOMAXPROCS(0)
	}
	return w, nil
}

// Workers is the number of goroutines a walk uses, and so the bound of the
// worker numbers passed to a Visit.
func (w *Walker) Workers() int { return w.opts.Workers }

// File is a file a walk yields.
type File struct {
	// Dir is the absolute path of the directory holding the file.
	Dir string
	// Name is the file's name, and Rel its path relative to the walk root,
	// with forward slashes.
	Name, Rel string
}

// Path is the file's absolute path.
func (f File) Path() string { return f.Dir + "/" + f.Name }

// Info is the file's metadata, as lstat reports it.
func (f File) Info() (fs.FileInfo, error) { return os.Lstat(f.Path()) }

// dirent is one entry of a directory listing.
type dirent struct {
	name string
	typ  fs.FileMode
}

// Visit receives each file the walk yields and the worker number (for
// per-worker buffers, 0 ≤ worker < Workers). It is called from several
// goroutines at once. Returning SkipAll stops the walk without an error.
type Visit func(worker int, file File) error

// SkipAll, returned by a Visit, ends the walk early and successfully.
var SkipAll = fs.SkipAll

type dirJob struct {
	abs, rel string
	ignores  *dirIgnores
}

// queue is the shared stack of directories still to read.
type queue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	jobs    []dirJob
	pending int
	err     error
}

// Walk visits every regular file under the root that the options select.
// Directories that cannot be read are skipped, as rg skips them.
func (w *Walker) Walk(ctx context.Context, visit Visit) error {
	q := &queue{jobs: []dirJob{{abs: w.opts.Root, ignores: w.parents}}, pending: 1}
	q.cond = sync.NewCond(&q.mu)
	var wg sync.WaitGroup
	for worker := range w.opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.work(ctx, q, &workerState{id: worker, buf: make([]byte, 32<<10)}, visit)
		}()
	}
	wg.Wait()
	if errors.Is(q.err, SkipAll) {
		return nil
	}
	if q.err == nil {
		return ctx.Err()
	}
	return q.err
}

// workerState is what one walking goroutine reuses from directory to directory.
type workerState struct {
	id      int
	buf     []byte
	entries []dirent
}

func (w *Walker) work(ctx context.Context, q *queue, worker *workerState, visit Visit) {
	for {
		q.mu.Lock()
		for len(q.jobs) == 0 && q.pending > 0 && q.err == nil {
			q.cond.Wait()
		}
		if q.pending == 0 || q.err != nil {
			q.mu.Unlock()
			return
		}
		job := q.jobs[len(q.jobs)-1]
		q.jobs = q.jobs[:len(q.jobs)-1]
		q.mu.Unlock()

		err := ctx.Err()
		if err == nil {
			err = w.readDir(q, job, worker, visit)
		}
		q.mu.Lock()
		q.pending--
		if err != nil && q.err == nil {
			q.err = err
		}
		if q.pending == 0 || q.err != nil {
			q.cond.Broadcast()
		}
		q.mu.Unlock()
	}
}

// readDir lists one directory, queues the subdirectories the filters keep and
// visits the files they keep.
func (w *Walker) readDir(q *queue, job dirJob, worker *workerState, visit Visit) error {
	entries, err := listDir(job.abs, worker.buf, worker.entries[:0])
	worker.entries = entries
	if err != nil && len(entries) == 0 {
		return nil
	}
	ignores := job.ignores
	if w.opts.Ignore {
		var names ignoreNames
		for _, e := range entries {
			names.see(e.name)
		}
		if names.any() {
			ignores = load(job.abs, names, ignores)
			ignores.prefix = job.rel
		}
	}
	var subdirs []dirJob
	for _, e := range entries {
		if e.typ&fs.ModeSymlink != 0 || (!e.typ.IsDir() && !e.typ.IsRegular()) {
			continue
		}
		rel := job.rel + e.name
		if !w.keep(ignores, rel, e.name, e.typ.IsDir()) {
			continue
		}
		if e.typ.IsDir() {
			subdirs = append(subdirs, dirJob{abs: job.abs + "/" + e.name, rel: rel + "/", ignores: ignores})
			continue
		}
		if err := visit(worker.id, File{Dir: job.abs, Name: e.name, Rel: rel}); err != nil {
			return err
		}
	}
	if len(subdirs) > 0 {
		q.mu.Lock()
		q.jobs = append(q.jobs, subdirs...)
		q.pending += len(subdirs)
		q.cond.Broadcast()
		q.mu.Unlock()
	}
	return nil
}

// keep applies ripgrep's order: a --glob verdict is final; then the ignore
// files may exclude; then the file types.
func (w *Walker) keep(ignores *dirIgnores, rel, name string, isDir bool) bool {
	switch w.globs.match(rel, name, isDir) {
	case ignored:
		return false
	case whitelisted:
		return true
	}
	if w.opts.Ignore && ignores.match(rel, name, isDir, w.global) == ignored {
		return false
	}
	return w.types.match(name, isDir) != ignored
}
