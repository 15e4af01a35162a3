// Package credentials knows which environment variables hold credentials, and
// builds the environment of a child process without the ones mini-claude
// itself uses, so a command, tool or server it starts cannot read the user's
// model keys unless the user's own settings pass them through. It also keeps
// the keys pasted into the first-run setup screen, in a private file of the
// user's own folder (see Save).
package credentials

import (
	"slices"
	"strings"
)

// names are the credentials kept from child processes: the ones mini-claude
// reads (ANTHROPIC_API_KEY and ANTHROPIC_AUTH_TOKEN for Anthropic,
// OPENAI_API_KEY for the OpenAI-compatible providers) and Claude Code's
// CLAUDE_CODE_OAUTH_TOKEN, the subscription token of the same account that a
// drop-in user often has exported. Credentials of other programs (GITHUB_TOKEN,
// AWS_*) are the user's tools' to use and pass as they are.
var names = []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "OPENAI_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN"}

// secretSuffixes end the names that look like credentials.
var secretSuffixes = []string{"_KEY", "_TOKEN", "_SECRET"}

// IsSecretName reports whether an environment variable looks like a
// credential: one mini-claude keeps from child processes, or a name ending in
// _KEY, _TOKEN or _SECRET, in any case. It decides what a folder's
// configuration may not expand.
func IsSecretName(name string) bool {
	upper := strings.ToUpper(name)
	if slices.Contains(names, upper) {
		return true
	}
	return slices.ContainsFunc(secretSuffixes, func(suffix string) bool { return strings.HasSuffix(upper, suffix) })
}

// ChildEnv returns env ("NAME=value" entries, as os.Environ gives them)
// without the credentials mini-claude keeps from child processes, except those
// named in pass. Names match exactly, as the environment is case-sensitive;
// every other entry stays, in order. The result is a new slice: appending to
// it never changes env.
func ChildEnv(env []string, pass []string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(entry string) bool {
		name, _, _ := strings.Cut(entry, "=")
		return slices.Contains(names, name) && !slices.Contains(pass, name)
	})
}
