// Package reaper starts mini-claude's child processes so that they die with
// it, even when it is killed with SIGKILL, and so does everything they start:
// a job left in the background (`sleep 100 &`), a daemon in a session of its
// own (`setsid server &`, `nohup … &`), the program an MCP launcher runs.
//
// A process killed with SIGKILL cleans nothing up, so the work falls to a
// process that outlives it and still knows the tree: on Linux, a helper that
// mini-claude starts once, at its first command (the same binary re-executed
// with HelperArg, taken over in this package's init so that test binaries can
// be their own helper too). The helper is a child subreaper
// (PR_SET_CHILD_SUBREAPER): it forks every command mini-claude asks for, and
// whatever those commands leave behind is re-parented to it, not to init,
// however it detached. It learns that mini-claude died when the socket they
// share reaches its end, which only mini-claude's death or exit can cause,
// and then kills its whole subtree with SIGKILL, again and again until it has
// no child left, and exits. Its children get a parent-death signal (SIGKILL)
// from a thread that never ends, so they die too if the helper itself is
// killed (Go issue 27505: the signal follows the forking thread, not the
// process).
//
// One helper serves the whole process: a start costs a message each way on
// the socket, not a program start, and the helper forks from a small process.
// Landlock's sandbox, which a process inherits from the thread that forks it,
// is applied by the helper on a thread of its own per set of writable
// directories.
//
// On other systems Start runs the process directly, as os/exec would; the
// processes it leaves behind are not watched.
package reaper
