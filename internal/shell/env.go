package shell

import (
	"strings"
	"sync"
)

// safeEnvVars are the variables that may be set before a read-only command
// without changing what it runs or reads (after Claude Code's list): locale,
// colours, terminal size, toolchain switches.
// It is built on first use, as are the package's other tables: a run that
// analyses no command does not pay for them at start-up.
var safeEnvVars = sync.OnceValue(func() map[string]bool {
	safe := map[string]bool{}
	for _, name := range strings.Fields(`GOEXPERIMENT GOOS GOARCH CGO_ENABLED GO111MODULE
		RUST_BACKTRACE RUST_LOG NODE_ENV PYTHONUNBUFFERED PYTHONDONTWRITEBYTECODE
		PYTEST_DISABLE_PLUGIN_AUTOLOAD PYTEST_DEBUG LANG LANGUAGE LC_ALL LC_CTYPE LC_TIME
		LC_COLLATE LC_NUMERIC LC_MESSAGES CHARSET TERM COLORTERM NO_COLOR FORCE_COLOR TZ
		LS_COLORS LSCOLORS GREP_COLOR GREP_COLORS GCC_COLORS TIME_STYLE BLOCK_SIZE BLOCKSIZE
		COLUMNS LINES CLICOLOR CLICOLOR_FORCE CI DEBIAN_FRONTEND GIT_TERMINAL_PROMPT`) {
		safe[name] = true
	}
	return safe
})

// safeCommandAssigns reports whether the VAR=value words before a command
// leave it read-only: every name is in safeEnvVars and every value static.
// PATH=…, LD_PRELOAD=…, LESSOPEN=… or GIT_DIR=… change what runs.
func safeCommandAssigns(list []assignment) bool {
	for _, a := range list {
		if !safeEnvVars()[a.name] || a.value.dynamic {
			return false
		}
	}
	return true
}

// safeBareAssignment reports whether a shell variable may be set without
// changing what later commands run. Names with a lower-case letter are the
// script's own by convention, except the proxy variables; upper-case names
// are environment variables (PATH, IFS, BASH_ENV, PS4) unless in
// safeEnvVars.
func safeBareAssignment(name string) bool {
	if safeEnvVars()[name] {
		return true
	}
	switch strings.ToLower(name) {
	case "http_proxy", "https_proxy", "ftp_proxy", "all_proxy", "no_proxy":
		return false
	}
	return strings.ToUpper(name) != name
}
