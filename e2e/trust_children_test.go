package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/llm/llmtest"
	"github.com/mini-claude/mini-claude/internal/mcp/mcptest"
)

// What child processes get: mini-claude's credentials stay with it unless
// the user's own settings pass one on; git in an untrusted folder runs none of
// the programs the folder's .git/config names.

const dumpEnv = "printenv ANTHROPIC_API_KEY OPENAI_API_KEY ANTHROPIC_AUTH_TOKEN; env"

func TestAttackChildProcessReadsTheKeys(t *testing.T) {
	passEnv := `{"passEnv":["ANTHROPIC_API_KEY","OPENAI_API_KEY","ANTHROPIC_AUTH_TOKEN"]}`
	cases := []struct {
		name  string
		setup func(r *run)
	}{
		{"Bash in an untrusted folder", func(r *run) {}},
		{"Bash in a trusted folder whose settings pass the keys", func(r *run) {
			writeSettings(r.t, r.dir, ".claude/settings.json", passEnv)
			writeSettings(r.t, r.dir, ".mini-claude/settings.local.json", passEnv)
			r.trust(false)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRun(t)
			withKeys(r)
			c.setup(r)
			res, _ := r.callOnce(bashUse("b1", dumpEnv), "--allowedTools", "Bash")
			if found := leaks(contentText(res)); len(found) > 0 || !strings.Contains(contentText(res), "HOME=") {
				t.Errorf("the command saw %v:\n%s", found, contentText(res))
			}
		})
	}
}

// The user's own custom tool and MCP server get none of the keys either.
func TestAttackUsersToolAndServerReadTheKeys(t *testing.T) {
	s := mcptest.Find(t)
	r := newRun(t)
	withKeys(r)
	r.setenv(mcpWait)
	r.userSettings(`{"tools":[{"name":"Env","description":"Shows the environment.","command":"` + dumpEnv + `","readOnly":true}]}`)
	config := mcpConfig(t, map[string]any{"everything": map[string]any{"command": s.Node, "args": []string{s.Everything, "stdio"}}})
	r.srv.Push(calls(llmtest.ToolUse("t1", "Env", `{}`), llmtest.ToolUse("m1", "mcp__everything__get-env", `{}`)), text("done"))
	r.headless("dump", "--mcp-config", config, "--allowedTools", "mcp__everything__get-env")
	for _, res := range lastResults(t, r.srv, 1) {
		if found := leaks(contentText(res)); len(found) > 0 || res.IsError {
			t.Errorf("%s saw %v (error %v)", res.ToolUseID, found, res.IsError)
		}
	}
}

// A stdio server the user approved in a trusted folder still starts without
// the keys (only what its own ${VAR} names, which the user was shown).
func TestAttackApprovedProjectServerReadsTheKeys(t *testing.T) {
	r := newRun(t)
	withKeys(r)
	r.setenv(mcpWait)
	dump := marker(t, "env.txt")
	inFile(".mcp.json", nil)(t, r.dir, map[string]any{"dump": map[string]any{"command": "sh", "args": []string{"-c", `env > "$0"`, dump}}})
	r.trust(true)
	r.exec("mcp", "list")
	present(t, dump, "the approved server")
	data, _ := os.ReadFile(dump)
	if found := leaks(string(data)); len(found) > 0 {
		t.Errorf("the server's environment holds %v", found)
	}
}

// passEnv in the user's own settings hands a key on, to exactly the children
// it names it for.
func TestControlUsersPassEnvHandsTheKeyOn(t *testing.T) {
	s := mcptest.Find(t)
	r := newRun(t)
	withKeys(r)
	r.setenv(mcpWait)
	r.userSettings(`{"passEnv":["OPENAI_API_KEY"]}`)
	config := mcpConfig(t, map[string]any{"everything": map[string]any{"command": s.Node, "args": []string{s.Everything, "stdio"}}})
	r.srv.Push(calls(bashUse("b1", dumpEnv), llmtest.ToolUse("m1", "mcp__everything__get-env", `{}`)), text("done"))
	r.headless("dump", "--mcp-config", config, "--allowedTools", "Bash,mcp__everything__get-env")
	for _, res := range lastResults(t, r.srv, 1) {
		if found := leaks(contentText(res)); len(found) != 1 || found[0] != openAIKey {
			t.Errorf("%s saw %v, want only the OpenAI key: %q", res.ToolUseID, found, contentText(res)[:min(200, len(contentText(res)))])
		}
	}
}

// gitIn returns a function running git in the run's folder, with its
// environment, and returning its output.
func gitIn(t *testing.T, r *run) func(args ...string) string {
	return func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=e2e", "-c", "user.email=e2e@example.com"}, args...)...)
		cmd.Dir, cmd.Env = r.dir, r.env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
}

// fakeSignature is a gpgsig header: git hands it to gpg.program to verify.
const fakeSignature = "gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n"

// gitRepo makes the run's folder a git repository with a commit of
// notes.txt and a signed commit on top, then sets config (name value pairs)
// in its .git/config and writes attributes to .gitattributes. The folder's
// program, .git/evil.sh, creates the returned marker and passes its input
// through.
func gitRepo(t *testing.T, r *run, attributes string, config ...string) string {
	t.Helper()
	pwned := marker(t, "pwned")
	git := gitIn(t, r)
	git("init", "-q")
	writeSettings(t, r.dir, "notes.txt", "one\n")
	git("add", "notes.txt")
	git("commit", "-q", "-m", "first")
	who := "e2e <e2e@example.com> 1700000000 +0000"
	signed := fmt.Sprintf("tree %s\nparent %s\nauthor %s\ncommitter %s\n%s\nsigned\n", git("rev-parse", "HEAD^{tree}"), git("rev-parse", "HEAD"), who, who, fakeSignature)
	object := filepath.Join(t.TempDir(), "commit")
	writeSettings(t, filepath.Dir(object), "commit", signed)
	git("update-ref", "HEAD", git("hash-object", "-t", "commit", "-w", object))
	evil := plantExec(t, r.dir, ".git/evil.sh", fmt.Sprintf(`touch %s; if [ -f "$1" ]; then cat "$1"; else cat; fi`, pwned))
	for i := 0; i < len(config); i += 2 {
		git("config", config[i], strings.ReplaceAll(config[i+1], "EVIL", evil))
	}
	writeSettings(t, r.dir, ".gitattributes", attributes)
	writeSettings(t, r.dir, "notes.txt", "one\ntwo\n")
	return pwned
}

// gitAttacks are repositories whose config names a program that a read-only
// git command would run, and that command.
var gitAttacks = []struct {
	name, attributes, command string
	config                    []string
	// armed: the program does run in a trusted folder, which proves the
	// attack real; git never pages without a terminal, so the pager does not.
	armed bool
}{
	{"core.fsmonitor on git status", "", "git status", []string{"core.fsmonitor", "EVIL"}, true},
	{"diff.external on git diff", "", "git diff", []string{"diff.external", "EVIL"}, true},
	{"a textconv driver on git diff", "*.txt diff=evil\n", "git diff", []string{"diff.evil.textconv", "EVIL"}, true},
	{"a clean filter on git diff", "*.txt filter=evil\n", "git diff", []string{"filter.evil.clean", "EVIL"}, true},
	{"core.pager on git log", "", "git log", []string{"core.pager", "EVIL", "pager.log", "EVIL"}, false},
	{"gpg.program on git log --show-signature", "", "git log --show-signature", []string{"gpg.program", "EVIL"}, true},
	{"a textconv driver on git show", "*.txt diff=evil\n", "git show HEAD~1", []string{"diff.evil.textconv", "EVIL"}, true},
	{"a textconv driver on git log -p", "*.txt diff=evil\n", "git log -p", []string{"diff.evil.textconv", "EVIL"}, true},
	{"a textconv driver on git blame", "*.txt diff=evil\n", "git blame notes.txt", []string{"diff.evil.textconv", "EVIL"}, true},
}

func TestAttackGitConfigRunsAProgram(t *testing.T) {
	for _, a := range gitAttacks {
		t.Run(a.name, func(t *testing.T) {
			r := newRun(t)
			pwned := gitRepo(t, r, a.attributes, a.config...)
			res, _ := r.callOnce(bashUse("g1", a.command))
			succeeded(t, res, a.command+", auto-allowed as read-only")
			absent(t, pwned, a.name)
		})
	}
}

// In a trusted folder the same repositories do run their programs: the
// attacks above are armed.
func TestControlGitConfigRunsInATrustedFolder(t *testing.T) {
	for _, a := range gitAttacks {
		if !a.armed {
			continue
		}
		t.Run(a.name, func(t *testing.T) {
			r := newRun(t)
			pwned := gitRepo(t, r, a.attributes, a.config...)
			r.trust(false)
			res, _ := r.callOnce(bashUse("g1", a.command))
			succeeded(t, res, a.command)
			present(t, pwned, a.name)
		})
	}
}

// A program of the folder named like a read-only command is not one.
func TestAttackPlantedProgramNamedLikeAReadOnlyCommand(t *testing.T) {
	for _, command := range []string{"./ls", "bin/cat notes.txt", "./bin/cat notes.txt", "PATH=.:$PATH ls", "env ./ls"} {
		t.Run(command, func(t *testing.T) {
			r := newRun(t)
			pwned := marker(t, "pwned")
			plantExec(t, r.dir, "ls", "touch "+pwned)
			plantExec(t, r.dir, "bin/cat", "touch "+pwned)
			writeSettings(t, r.dir, "notes.txt", "notes\n")
			res, _ := r.callOnce(bashUse("b1", command))
			refused(t, res, command)
			absent(t, pwned, command)
		})
	}
}

// The real ls still runs unasked, and the planted one runs when the user
// allows it: the plant is armed.
func TestControlPlantedProgramRunsWhenAllowed(t *testing.T) {
	r := newRun(t)
	pwned := marker(t, "pwned")
	plantExec(t, r.dir, "ls", "touch "+pwned)
	res, _ := r.callOnce(bashUse("b1", "ls"))
	if succeeded(t, res, "ls"); !strings.Contains(contentText(res), "ls") {
		t.Errorf("ls printed %q", contentText(res))
	}
	absent(t, pwned, "the system's ls")
	res, _ = r.callOnce(bashUse("b2", "./ls"), "--allowedTools", "Bash(./ls)")
	succeeded(t, res, "./ls allowed by the user")
	present(t, pwned, "./ls allowed by the user")
}

// A glob in a command's argument is resolved before the folder's deny rule
// is decided (which applies untrusted: it only narrows).
func TestAttackGlobReadsPastADenyRule(t *testing.T) {
	for _, command := range []string{"cat private/notes.txt", "cat priv*/notes.txt", "cat p?ivate/notes.txt",
		"cat [p]rivate/notes.txt", "head -n 5 */notes.txt", "cat priv*/*"} {
		t.Run(command, func(t *testing.T) {
			r := newRun(t)
			writeSettings(t, r.dir, ".claude/settings.json", `{"permissions":{"deny":["Read(./private/**)"]}}`)
			writeSettings(t, r.dir, "private/notes.txt", "PRIVATE-NOTES-e2e\n")
			writeSettings(t, r.dir, "public/notes.txt", "public notes\n")
			res, _ := r.callOnce(bashUse("b1", command))
			if !res.IsError || !strings.Contains(contentText(res), "denied") {
				t.Errorf("%s: the model got %q (error %v), want a denial", command, contentText(res), res.IsError)
			}
			noSecretInRequests(t, r, "PRIVATE-NOTES")
		})
	}
}

func TestControlGlobOutsideTheDeniedFolderRuns(t *testing.T) {
	r := newRun(t)
	writeSettings(t, r.dir, ".claude/settings.json", `{"permissions":{"deny":["Read(./private/**)"]}}`)
	writeSettings(t, r.dir, "private/notes.txt", "PRIVATE-NOTES-e2e\n")
	writeSettings(t, r.dir, "public/notes.txt", "public notes\n")
	res, _ := r.callOnce(bashUse("b1", "cat pub*/notes.txt"))
	if res.IsError || contentText(res) != "public notes" {
		t.Errorf("cat pub*/notes.txt: %q (error %v)", contentText(res), res.IsError)
	}
}

// bigErrorServer is a stdio MCP server whose one tool fails with n bytes of text.
func bigErrorServer(t *testing.T, node string, n int) map[string]any {
	script := filepath.Join(t.TempDir(), "big.js")
	writeSettings(t, filepath.Dir(script), "big.js", fmt.Sprintf(`const rl = require('readline').createInterface({input: process.stdin});
const send = (id, result) => process.stdout.write(JSON.stringify({jsonrpc: '2.0', id, result}) + '\n');
rl.on('line', line => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') send(m.id, {protocolVersion: m.params.protocolVersion, capabilities: {tools: {}}, serverInfo: {name: 'big', version: '1'}});
  else if (m.method === 'tools/list') send(m.id, {tools: [{name: 'fail', description: 'Fails loudly.', inputSchema: {type: 'object'}}]});
  else if (m.method === 'tools/call') send(m.id, {isError: true, content: [{type: 'text', text: 'E'.repeat(%d)}]});
  else process.stdout.write(JSON.stringify({jsonrpc: '2.0', id: m.id, error: {code: -32601, message: 'unknown'}}) + '\n');
});
`, n))
	return map[string]any{"command": node, "args": []string{script}}
}

// A 1 MB error, from a custom tool or an MCP server's isError result, reaches
// the model bounded: the MCP server's as a preview of the stored result, like
// a successful one; the custom tool's as the tail a failing command keeps. A
// small one arrives whole.
func TestAttackHugeErrorResultIsBounded(t *testing.T) {
	s := mcptest.Find(t)
	for _, size := range []int{1 << 20, 300} {
		r := newRun(t)
		r.setenv(mcpWait)
		r.userSettings(fmt.Sprintf(`{"tools":[{"name":"Noisy","description":"Fails loudly.","command":"yes E | head -c %d; exit 1","readOnly":true}]}`, size))
		config := mcpConfig(t, map[string]any{"big": bigErrorServer(t, s.Node, size)})
		r.srv.Push(calls(llmtest.ToolUse("c1", "Noisy", `{}`), llmtest.ToolUse("m1", "mcp__big__fail", `{}`)), text("done"))
		r.headless("fail", "--mcp-config", config, "--allowedTools", "mcp__big")
		for _, res := range lastResults(t, r.srv, 1) {
			got := contentText(res)
			switch {
			case !res.IsError:
				t.Errorf("%s: not an error: %.200q", res.ToolUseID, got)
			case size > 100_000 && (len(got) > 60_000 || res.ToolUseID == "m1" && !strings.Contains(got, "<persisted-output>")):
				t.Errorf("%s: a %d-byte error reached the model as %d characters: %.200q", res.ToolUseID, size, len(got), got)
			case size < 100_000 && strings.Count(got, "E") < size/2:
				t.Errorf("%s: a small error was cut: %q", res.ToolUseID, got)
			}
		}
	}
}

// mini-claude's own start-up (the system prompt's context, the UI) runs none
// of the programs a repository's config names, whatever git it may call.
func TestAttackGitConfigAtStartUp(t *testing.T) {
	var config []string
	for _, a := range gitAttacks {
		config = append(config, a.config...)
	}
	r := newRun(t)
	pwned := gitRepo(t, r, "*.txt diff=evil filter=evil\n", config...)
	r.srv.Push(text("done"))
	r.headless("hi")
	s := openScreen(t, r)
	r.srv.Push(text("Done."))
	s.typeLine("hi")
	s.waitFor("Done.")
	absent(t, pwned, "start-up in a repository whose config names programs")
}
