package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// write writes the golden files of a recorded scenario under out.
func (sc scenario) write(out string, s *scratch, settings map[string]any, results []*runResult, logged []*value, norm func() *normalizer) error {
	if sc.events != "" {
		return writeSession(filepath.Join(out, sc.events), s, results, logged, norm)
	}
	return writeEffect(filepath.Join(out, "effects", sc.name), s, settings, results, logged, norm)
}

// envValue is the recorded value of a hook's environment variable key:
// normalized, with the ones that change every run replaced.
func envValue(n *normalizer, key, val string) string {
	switch key {
	case "PATH":
		return "<PATH>"
	case "CLAUDE_PID":
		return "<pid>"
	case "CLAUDE_CODE_MESSAGING_TOKEN":
		return "<token>"
	case "CLAUDE_CODE_MESSAGING_SOCKET":
		return "/tmp/cc-socks/<pid>.sock"
	}
	return n.str(key, val)
}

// writeSession writes one file per event, <Event>.json, with the inputs the
// hooks of that event received in the order they ran; order.txt, the events
// in the order they fired, run by run; env.json, the environment and working
// directory of each event's first hook; and the runs' stream-json.
func writeSession(dir string, s *scratch, results []*runResult, logged []*value, norm func() *normalizer) error {
	// Clear the previous recording, but not the folders of other scenarios.
	os.RemoveAll(filepath.Join(dir, "stream"))
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if !e.IsDir() {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
	byEvent := map[string][]*value{}
	var order strings.Builder
	envOf := map[string]*value{}
	envNorm := norm()
	run := -1
	argNorm := norm()
	for i, l := range logged {
		// Run r logged the lines from results[r-1].logLines to results[r].logLines.
		for run+1 < len(results) && (run < 0 || i >= results[run].logLines) {
			run++
			var args []string
			for _, a := range results[run].args {
				args = append(args, shellWord(argNorm.str("", a)))
			}
			fmt.Fprintf(&order, "== run %s: claude %s\n", results[run].spec.label, strings.Join(args, " "))
		}
		label := l.get("label").text()
		in := l.get("stdin")
		byEvent[label] = append(byEvent[label], in)
		detail := ""
		for _, k := range []string{"source", "reason", "tool_name", "trigger", "agent_type", "load_reason", "notification_type", "expansion_type"} {
			if v := in.get(k); v != nil && v.kind == 's' {
				detail += " " + k + "=" + v.str
			}
		}
		if a := in.get("agent_id"); a != nil {
			detail += " (agent_id set)"
		}
		fmt.Fprintf(&order, "%s%s\n", label, detail)
		if envOf[label] == nil {
			e := &value{kind: 'o'}
			e.members = append(e.members, member{"cwd", &value{kind: 's', str: envNorm.str("cwd", l.get("cwd").text())}})
			vars := &value{kind: 'o'}
			for _, m := range l.get("env").members {
				vars.members = append(vars.members, member{m.key, &value{kind: 's', str: envValue(envNorm, m.key, m.val.text())}})
			}
			e.members = append(e.members, member{"env", vars})
			envOf[label] = e
		}
	}
	env := &value{kind: 'o'}
	for _, event := range allEvents {
		if e := envOf[event]; e != nil {
			env.members = append(env.members, member{event, e})
		}
	}
	for event, inputs := range byEvent {
		n := norm()
		arr := &value{kind: 'a'}
		for _, in := range inputs {
			n.value("", in)
			arr.items = append(arr.items, in)
		}
		if err := writeFile(filepath.Join(dir, event+".json"), []byte(arr.indent()+"\n")); err != nil {
			return err
		}
	}
	if err := writeFile(filepath.Join(dir, "order.txt"), []byte(order.String())); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, "env.json"), []byte(env.indent()+"\n")); err != nil {
		return err
	}
	for _, r := range results {
		if r.spec.label == "tui" {
			continue // the screen is no golden
		}
		if err := writeFile(filepath.Join(dir, "stream", r.spec.label+".jsonl"), streamLines(norm(), r.stdout)); err != nil {
			return err
		}
	}
	return nil
}

// streamLines normalizes stream-json output, one compact object a line.
func streamLines(n *normalizer, stdout []byte) []byte {
	var b bytes.Buffer
	for _, line := range bytes.Split(stdout, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		b.WriteString(n.json(line).compact())
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// itoa formats an int.
func itoa(i int) string { return fmt.Sprint(i) }

// shellWord quotes s for sh when it holds more than letters, digits and -_./=<>.
func shellWord(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=<>", r)) {
			return shq(s)
		}
	}
	return s
}
