package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// standardReminders begin the texts of the reminders Claude Code puts in
// the first user message of every session, hooks or not; requests.json
// shortens them, keeping their first line.
var standardReminders = []string{
	"<system-reminder>\n# Environment\n",
	"<system-reminder>\nYou are powered by the model",
	"<system-reminder>\nThe following deferred tools",
	"<system-reminder>\nAvailable agent types",
	"<system-reminder>\nThe following skills are available",
	"<system-reminder>\n<total_tokens>",
	"<system-reminder>\nCodebase and user instructions",
	"<system-reminder>\nToday's date",
	"<system-reminder>\nAttribution for git commits",
}

// elided shortens a standard reminder to its first two lines.
func elided(text string) (string, bool) {
	for _, p := range standardReminders {
		if strings.HasPrefix(text, p) {
			return strings.TrimRight(p, "\n") + "… [elided by the recorder]", true
		}
	}
	return text, false
}

// requestsValue is the messages of each request to the model, the standard
// reminders shortened.
func requestsValue(n *normalizer, r *runResult) *value {
	arr := &value{kind: 'a', items: []*value{}}
	for _, req := range r.requests {
		body, err := parse(req.Body)
		if err != nil {
			continue
		}
		msgs := body.get("messages")
		if msgs == nil {
			continue
		}
		for _, m := range msgs.items {
			content := m.get("content")
			if content == nil || content.kind != 'a' {
				continue
			}
			for _, b := range content.items {
				if t := b.get("text"); t != nil && t.kind == 's' {
					t.str, _ = elided(t.str)
				}
			}
		}
		n.value("", msgs)
		entry := &value{kind: 'o', members: []member{{"path", &value{kind: 's', str: req.Path}}, {"messages", msgs}}}
		arr.items = append(arr.items, entry)
	}
	return arr
}

// writeEffect writes an effect scenario's files into dir:
//
//   - settings.json: the project settings (the hooks);
//   - <run>.jsonl: the stdout of each stream-json run;
//   - runs.json: each run's arguments, exit code and stderr (and stdout for
//     the text run);
//   - requests.json: the messages of each request of the "stream" run, and
//     requests_<run>.json those of the runs that keep theirs;
//   - inputs.json: the stdin of the hooks that log it (stop_*);
//   - fired.txt: the hooks that ran, for the scenarios whose hooks log, and
//     logged.json, the stdin they logged;
//   - files.txt: the project's files after the runs.
func writeEffect(dir string, s *scratch, settings map[string]any, results []*runResult, logged []*value, norm func() *normalizer) error {
	os.RemoveAll(dir)
	settingsJSON, _ := json.Marshal(settings)
	if err := writeFile(filepath.Join(dir, "settings.json"), []byte(norm().json(settingsJSON).indent()+"\n")); err != nil {
		return err
	}
	runs := &value{kind: 'a'}
	for _, r := range results {
		n := norm()
		entry := &value{kind: 'o'}
		args := &value{kind: 'a'}
		for _, a := range r.args {
			args.items = append(args.items, &value{kind: 's', str: n.str("", a)})
		}
		entry.members = append(entry.members,
			member{"run", &value{kind: 's', str: r.spec.label}},
			member{"args", args},
			member{"exit_code", &value{kind: 'n', str: itoa(r.code)}},
			member{"stderr", &value{kind: 's', str: n.str("", stripRetirement(string(r.stderr)))}})
		if r.spec.output == "text" {
			entry.members = append(entry.members, member{"stdout", &value{kind: 's', str: n.str("", string(r.stdout))}})
		} else if err := writeFile(filepath.Join(dir, r.spec.label+".jsonl"), streamLines(norm(), r.stdout)); err != nil {
			return err
		}
		runs.items = append(runs.items, entry)
		if r.spec.label == "stream" || r.spec.requests {
			name := "requests.json"
			if r.spec.label != "stream" {
				name = "requests_" + r.spec.label + ".json"
			}
			if err := writeFile(filepath.Join(dir, name), []byte(requestsValue(norm(), r).indent()+"\n")); err != nil {
				return err
			}
		}
	}
	if err := writeFile(filepath.Join(dir, "runs.json"), []byte(runs.indent()+"\n")); err != nil {
		return err
	}
	if data, err := os.ReadFile(s.inputs()); err == nil {
		n := norm()
		arr := &value{kind: 'a'}
		for _, line := range bytes.Split(data, []byte("\n")) {
			if len(bytes.TrimSpace(line)) > 0 {
				arr.items = append(arr.items, n.json(line))
			}
		}
		if err := writeFile(filepath.Join(dir, "inputs.json"), []byte(arr.indent()+"\n")); err != nil {
			return err
		}
	}
	if len(logged) > 0 {
		// The hooks of one event run in parallel: their lines are sorted.
		var lines []string
		for _, l := range logged {
			in := l.get("stdin")
			lines = append(lines, in.get("hook_event_name").text()+" "+in.get("tool_name").text()+": "+l.get("label").text()+"\n")
		}
		sort.Strings(lines)
		if err := writeFile(filepath.Join(dir, "fired.txt"), []byte(strings.Join(lines, ""))); err != nil {
			return err
		}
		n := norm()
		arr := &value{kind: 'a'}
		for _, l := range logged {
			in := l.get("stdin")
			n.value("", in)
			arr.items = append(arr.items, in)
		}
		if err := writeFile(filepath.Join(dir, "logged.json"), []byte(arr.indent()+"\n")); err != nil {
			return err
		}
	}
	var files []string
	filepath.WalkDir(s.proj, func(path string, d os.DirEntry, err error) error {
		if err != nil || path == s.proj {
			return nil
		}
		if d.IsDir() && d.Name() == ".claude" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(s.proj, path)
			files = append(files, rel)
		}
		return nil
	})
	sort.Strings(files)
	return writeFile(filepath.Join(dir, "files.txt"), []byte(strings.Join(files, "\n")+"\n"))
}

// retirementRe is the warning claude prints on stderr in text mode for the
// model the recorder asks for, whose wording depends on the date.
var retirementRe = regexp.MustCompile(`(?m)^⚠ Claude Sonnet 4\.5 (was|will be) retired on [^\n]*\n`)

// stripRetirement removes the model's retirement warning from stderr.
func stripRetirement(stderr string) string { return retirementRe.ReplaceAllString(stderr, "") }
