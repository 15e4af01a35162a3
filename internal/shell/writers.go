package shell

import (
	"path"
	"strings"
)

// writerEffect lists the files written by commands known to create, change
// or remove them. ok is false for other commands.
func writerEffect(name string, a argv) (effect, bool) {
	switch name {
	case "touch":
		return effect{writes: a.operands(opts{short: "dtr", long: []string{"--date", "--reference"}})}, true
	case "mkdir":
		return effect{writes: a.operands(opts{short: "m", long: []string{"--mode", "--context"}})}, true
	case "rm", "rmdir", "unlink", "shred":
		return effect{writes: a.operands(opts{short: "ns", long: []string{"--iterations", "--size", "--random-source", "--interactive"}})}, true
	case "tee":
		return effect{writes: a.operands(opts{long: []string{"--output-error"}})}, true
	case "truncate":
		return effect{writes: a.operands(opts{short: "sr", long: []string{"--size", "--reference"}})}, true
	case "chmod", "chown", "chgrp":
		ops := a.operands(opts{long: []string{"--reference", "--from"}})
		if !a.has("", "--reference") && len(ops) > 0 {
			ops = ops[1:]
		}
		return effect{writes: ops}, true
	case "cp", "install", "ln":
		return effect{writes: copyTargets(name, a)}, true
	case "mv":
		return effect{writes: append(a.operands(opts{short: "tS", long: []string{"--target-directory", "--suffix", "--backup"}}), a.values('t', "--target-directory")...)}, true
	case "dd":
		var out []word
		for _, w := range a[1:] {
			if v, ok := strings.CutPrefix(w.text, "of="); ok {
				out = append(out, word{text: v, dynamic: w.dynamic, span: w.span})
			}
		}
		return effect{writes: out}, true
	case "curl":
		return effect{writes: a.values('o', "--output")}, true
	case "wget":
		return effect{writes: a.values('O', "--output-document")}, true
	}
	return effect{}, false
}

// copyTargets returns where cp, install and ln write: the -t directory, or
// the last operand; ln with one operand links into the current directory.
func copyTargets(name string, a argv) []word {
	if dir := a.values('t', "--target-directory"); len(dir) > 0 {
		return dir
	}
	ops := a.operands(opts{short: "tSmogb", long: []string{"--target-directory", "--suffix", "--mode", "--owner", "--group", "--backup", "--sparse", "--reflink"}})
	if name == "install" && a.has("d", "--directory") {
		return ops
	}
	switch {
	case len(ops) == 0:
		return nil
	case len(ops) == 1 && name == "ln":
		base := path.Base(ops[0].text)
		return []word{{text: base, dynamic: ops[0].dynamic, span: ops[0].span}}
	default:
		return ops[len(ops)-1:]
	}
}
