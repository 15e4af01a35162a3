package shell

import (
	"path"
	"regexp"
	"strings"
	"sync"
)

// effect is what one command does, judged from its name and options.
type effect struct {
	readOnly bool
	// anyArgs is set when no extra argument (as xargs appends) can make the
	// command write, run code or read a file.
	anyArgs bool
	// reads are the files a read-only command reads or lists.
	reads []word
	// recursive is set when the command reads whole directory trees under
	// the directories it names (grep -r, rg, find).
	recursive bool
	// writes are the files the command creates, changes or removes.
	writes []word
	// cd is the directory a cd or pushd moves to.
	cd *word
	// cwdUnknown is set when the command moves to a directory the line
	// does not name (popd, pushd +1).
	cwdUnknown bool
}

// classify judges a command whose name is static. A name written as a path
// (./ls, bin/cat, /usr/bin/ls) runs whatever file is there, not the program
// the tables describe: it is never read-only, though the files a writer of
// that name would write are still reported, for the deny rules.
func classify(args []word) effect {
	name := path.Base(args[0].text)
	if qualified(args[0]) {
		eff, _ := writerEffect(name, argv(args))
		return eff
	}
	if spec, ok := specs()[name]; ok {
		return spec(argv(args))
	}
	if eff, ok := writerEffect(name, argv(args)); ok {
		return eff
	}
	return effect{}
}

// qualified reports whether a command name is written as a path: bash then
// runs that file, and looks up no built-in, function or PATH entry.
func qualified(name word) bool { return strings.Contains(name.text, "/") }

// specs are the commands the analysis knows, built on first use.
var specs = sync.OnceValue(func() map[string]func(argv) effect {
	return map[string]func(argv) effect{
		// Print or test, read no file.
		"echo": noFiles, "printf": printfSpec, "true": noFiles, "false": noFiles,
		"test": noFiles, "[": noFiles, ":": noFiles, "pwd": noFiles,
		"basename": noFiles, "dirname": noFiles, "seq": noFiles, "expr": noFiles,
		"which": noFiles, "type": noFiles, "whereis": noFiles, "whoami": noFiles,
		"id": noFiles, "groups": noFiles, "uname": noFiles, "nproc": noFiles,
		"arch": noFiles, "tty": noFiles, "locale": noFiles, "getconf": noFiles,
		"uptime": noFiles, "free": noFiles, "sleep": noFiles, "printenv": noFiles,
		"exit": noFiles, "return": noFiles, "break": noFiles, "continue": noFiles,
		"shift": noFiles, "wait": noFiles, "jobs": noFiles,
		"cal": noFiles, "logname": noFiles, "ps": noFiles, "df": noFiles,
		"env": noFiles, "command": noFiles, "nice": noFiles, "tr": noFiles,
		"date": dateSpec, "hostname": hostnameSpec, "set": setSpec,
		"read": readSpec, "cd": cdSpec, "pushd": cdSpec, "popd": popdSpec, "xargs": xargsAloneSpec,
		// Read the files they name.
		"cat":       readsFiles(opts{}),
		"head":      readsFiles(opts{short: "nc", long: []string{"--lines", "--bytes"}}),
		"tail":      readsFiles(opts{short: "ncs", long: []string{"--lines", "--bytes", "--pid", "--sleep-interval", "--max-unchanged-stats"}}),
		"wc":        readsUnlessFileList(opts{}),
		"nl":        readsFiles(opts{short: "bdfhilnsvw"}),
		"tac":       readsFiles(opts{short: "s", long: []string{"--separator"}}),
		"rev":       readsFiles(opts{}),
		"cut":       readsFiles(opts{short: "bcdf", long: []string{"--bytes", "--characters", "--delimiter", "--fields", "--output-delimiter"}}),
		"paste":     readsFiles(opts{short: "d", long: []string{"--delimiters"}}),
		"column":    readsFiles(opts{short: "csoNlRHWErinp", long: []string{"--separator", "--output-separator", "--table-columns", "--output-width"}}),
		"fold":      readsFiles(opts{short: "w", long: []string{"--width"}}),
		"fmt":       readsFiles(opts{short: "wpg", long: []string{"--width", "--prefix", "--goal"}}),
		"expand":    readsFiles(opts{short: "t", long: []string{"--tabs"}}),
		"unexpand":  readsFiles(opts{short: "t", long: []string{"--tabs"}}),
		"comm":      readsFiles(opts{long: []string{"--output-delimiter"}}),
		"join":      readsFiles(opts{short: "12aejotv"}),
		"od":        readsFiles(opts{short: "AjNSt", long: []string{"--address-radix", "--skip-bytes", "--read-bytes", "--strings", "--format"}}),
		"hexdump":   readsFiles(opts{short: "efns"}),
		"strings":   readsFiles(opts{short: "netTs", long: []string{"--bytes", "--radix", "--encoding", "--target", "--output-separator"}}),
		"md5sum":    readsFiles(opts{}),
		"sha1sum":   readsFiles(opts{}),
		"sha224sum": readsFiles(opts{}),
		"sha256sum": readsFiles(opts{}),
		"sha384sum": readsFiles(opts{}),
		"sha512sum": readsFiles(opts{}),
		"b2sum":     readsFiles(opts{short: "l", long: []string{"--length"}}),
		"cksum":     readsFiles(opts{short: "al", long: []string{"--algorithm", "--length"}}),
		"diff":      readsFiles(opts{short: "CDFILSUXx", long: []string{"--label", "--from-file", "--to-file", "--exclude", "--exclude-from", "--ignore-matching-lines", "--starting-file", "--show-function-line", "--tabsize", "--horizon-lines", "--line-format", "--unchanged-line-format", "--old-line-format", "--new-line-format", "--palette"}}),
		"cmp":       readsFiles(opts{short: "in", long: []string{"--ignore-initial", "--bytes"}}),
		"ls":        lsSpec,
		"stat":      readsFiles(opts{short: "c", long: []string{"--format", "--printf"}}),
		"file":      fileSpec,
		"du":        recursively(readsUnlessFileList(opts{short: "dBtX", long: []string{"--max-depth", "--block-size", "--threshold", "--exclude", "--exclude-from", "--time-style"}})),
		"realpath":  readsFiles(opts{long: []string{"--relative-to", "--relative-base"}}),
		"readlink":  readsFiles(opts{}),
		"base64":    base64Spec,
		"xxd":       xxdSpec,
		"tree":      treeSpec,
		"grep":      grepSpec, "egrep": grepSpec, "fgrep": grepSpec,
		"rg":   rgSpec,
		"find": findSpec,
		"sort": sortSpec,
		"uniq": uniqSpec,
		"sed":  sedSpec,
		"jq":   jqSpec,
		"git":  gitSpec,
	}
})

func noFiles(argv) effect { return effect{readOnly: true, anyArgs: true} }

func readsFiles(o opts) func(argv) effect {
	return func(a argv) effect { return effect{readOnly: true, reads: a.operands(o)} }
}

// readsUnlessFileList is readsFiles for tools whose --files0-from reads the
// list of files to read from a file, which names files no one can see.
func readsUnlessFileList(o opts) func(argv) effect {
	return func(a argv) effect {
		if a.has("", "--files0-from") {
			return effect{}
		}
		return effect{readOnly: true, reads: a.operands(o)}
	}
}

// printfSpec: printf -v assigns a shell variable instead of printing.
func printfSpec(a argv) effect {
	if len(a) > 1 && strings.HasPrefix(a[1].text, "-v") {
		return effect{}
	}
	return effect{readOnly: true, anyArgs: true}
}

// dateSpec: date -s and an operand other than +FORMAT set the clock.
func dateSpec(a argv) effect {
	if a.has("s", "--set") {
		return effect{}
	}
	for _, op := range a.operands(opts{short: "dfr", long: []string{"--date", "--file", "--reference"}}) {
		if !strings.HasPrefix(op.text, "+") {
			return effect{}
		}
	}
	return effect{readOnly: true, reads: append(a.values('f', "--file"), a.values('r', "--reference")...)}
}

// hostnameSpec: an operand or -F sets the host name.
func hostnameSpec(a argv) effect {
	if a.has("bF", "--file", "--boot") || len(a.operands(opts{})) > 0 {
		return effect{}
	}
	return effect{readOnly: true}
}

// setSpec: set with options only changes shell options (set -euo pipefail).
func setSpec(a argv) effect {
	for _, w := range a[1:] {
		if w.dynamic || (!strings.HasPrefix(w.text, "-") && !strings.HasPrefix(w.text, "+") && !isName(w.text)) {
			return effect{}
		}
	}
	return effect{readOnly: true}
}

func cdSpec(a argv) effect {
	ops := a.operands(opts{})
	target := word{text: "~"}
	if len(ops) > 0 {
		target = ops[0]
	}
	if path.Base(a[0].text) == "pushd" && (len(ops) == 0 || strings.HasPrefix(target.text, "+") || strings.HasPrefix(target.text, "-")) {
		return effect{readOnly: true, cwdUnknown: true} // swaps or rotates the directory stack
	}
	return effect{readOnly: true, anyArgs: true, cd: &target}
}

// popdSpec: popd returns to a directory the line does not name.
func popdSpec(argv) effect { return effect{readOnly: true, cwdUnknown: true} }

// xargsAloneSpec: xargs without a command runs echo; -a reads a file.
func xargsAloneSpec(a argv) effect {
	return effect{readOnly: true, reads: a.values('a', "--arg-file")}
}

func base64Spec(a argv) effect {
	if a.has("o", "--output") {
		return effect{writes: a.values('o', "--output")}
	}
	return effect{readOnly: true, reads: a.operands(opts{short: "w", long: []string{"--wrap"}})}
}

// xxdSpec: a second operand is an output file.
func xxdSpec(a argv) effect {
	ops := a.operands(opts{short: "cglosnR", long: []string{"-cols", "-groupsize", "-len", "-seek", "-name"}})
	if len(ops) > 1 {
		return effect{writes: ops[1:2]}
	}
	return effect{readOnly: true, reads: ops}
}

func treeSpec(a argv) effect {
	if a.has("o") {
		return effect{writes: a.values('o', "")}
	}
	return effect{readOnly: true, reads: a.operands(opts{short: "LPIoH", long: []string{"--filelimit", "--timefmt", "--charset", "--sort"}}), recursive: true}
}

// grepSpec: the first operand is the pattern unless -e or -f gives it; a
// recursive grep without operands searches the current directory.
func grepSpec(a argv) effect {
	ops := a.operands(opts{short: "efmABCdD", long: []string{"--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context", "--include", "--exclude", "--exclude-from", "--exclude-dir", "--label", "--devices", "--directories", "--binary-files", "--group-separator"}})
	if !a.has("ef", "--regexp", "--file") && len(ops) > 0 {
		ops = ops[1:]
	}
	reads := append(ops, a.values('f', "--file")...)
	recursive := a.has("rR", "--recursive", "--dereference-recursive")
	if len(ops) == 0 && recursive {
		reads = append(reads, word{text: "."})
	}
	return effect{readOnly: true, reads: reads, recursive: recursive}
}

// rgSpec: --pre and --hostname-bin run programs; -z runs decompressors.
func rgSpec(a argv) effect {
	if a.has("z", "--pre", "--hostname-bin", "--search-zip") {
		return effect{}
	}
	ops := a.operands(opts{short: "efgtTmABCMjdrEM", long: []string{"--regexp", "--file", "--glob", "--iglob", "--type", "--type-not", "--type-add", "--type-clear", "--max-count", "--after-context", "--before-context", "--context", "--max-columns", "--threads", "--max-depth", "--replace", "--encoding", "--sort", "--sortr", "--color", "--colors", "--ignore-file", "--path-separator", "--max-filesize", "--context-separator", "--field-match-separator", "--field-context-separator", "--dfa-size-limit", "--regex-size-limit", "--engine", "--pre-glob", "--generate"}})
	if !a.has("ef", "--regexp", "--file", "--files", "--type-list") && len(ops) > 0 {
		ops = ops[1:]
	}
	reads := append(ops, a.values('f', "--file")...)
	if len(ops) == 0 {
		reads = append(reads, word{text: "."})
	}
	return effect{readOnly: true, reads: reads, recursive: true}
}

// findSpec judges find's own expression; the commands its -exec actions
// run are separate Commands. -delete removes, -fprint* and -fls write.
func findSpec(a argv) effect {
	if a.contains("-delete") {
		return effect{writes: findStarts(a)}
	}
	if a.hasPrefixWord("-fprint", "-fls") {
		var out []word
		for i := 1; i+1 < len(a); i++ {
			if strings.HasPrefix(a[i].text, "-fprint") || a[i].text == "-fls" {
				out = append(out, a[i+1])
			}
		}
		return effect{writes: out}
	}
	if a.contains("-files0-from") {
		return effect{}
	}
	return effect{readOnly: true, reads: findStarts(a), recursive: true}
}

// findStarts returns find's starting points (default ".").
func findStarts(a argv) []word {
	var starts []word
	i := 1
	for i < len(a) && (a[i].text == "-H" || a[i].text == "-L" || a[i].text == "-P" || strings.HasPrefix(a[i].text, "-O") || a[i].text == "-D") {
		if a[i].text == "-D" {
			i++
		}
		i++
	}
	for ; i < len(a); i++ {
		t := a[i].text
		if !a[i].dynamic && (strings.HasPrefix(t, "-") || t == "(" || t == "!" || t == ",") {
			break
		}
		starts = append(starts, a[i])
	}
	if len(starts) == 0 {
		starts = append(starts, word{text: "."})
	}
	return starts
}

// sortSpec: -o writes; --compress-program runs a program.
func sortSpec(a argv) effect {
	if a.has("", "--compress-program", "--files0-from") {
		return effect{}
	}
	if out := a.values('o', "--output"); len(out) > 0 {
		return effect{writes: out}
	}
	return effect{readOnly: true, reads: a.operands(opts{short: "kotST", long: []string{"--key", "--output", "--field-separator", "--buffer-size", "--temporary-directory", "--parallel", "--batch-size", "--sort", "--random-source"}})}
}

// uniqSpec: a second operand is an output file.
func uniqSpec(a argv) effect {
	ops := a.operands(opts{short: "fsw", long: []string{"--skip-fields", "--skip-chars", "--check-chars"}})
	if len(ops) > 1 {
		return effect{writes: ops[1:2]}
	}
	return effect{readOnly: true, reads: ops}
}

// jqSpec: the first operand is the filter unless -f gives it; --slurpfile
// and --rawfile read files.
func jqSpec(a argv) effect {
	reads := a.values('f', "--from-file")
	filterSeen := len(reads) > 0
	for i := 1; i < len(a); i++ {
		t := a[i].text
		switch {
		case t == "--arg" || t == "--argjson":
			i += 2
		case t == "--slurpfile" || t == "--rawfile":
			if i+2 < len(a) {
				reads = append(reads, a[i+2])
			}
			i += 2
		case t == "--args" || t == "--jsonargs":
			i = len(a)
		case t == "-f" || t == "--from-file" || t == "-L" || t == "--indent":
			i++
		case !a[i].dynamic && strings.HasPrefix(t, "-") && t != "-":
		case !filterSeen:
			filterSeen = true
		default:
			reads = append(reads, a[i])
		}
	}
	return effect{readOnly: true, reads: reads}
}

// sedSafeScript matches sed scripts that only print, delete, quit or
// substitute without the w and e flags: commands that neither write files
// nor run programs.
var sedSafeScript = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\s*(([0-9]+|\$|/[^/]*/)(,([0-9]+|\$|/[^/]*/))?)?\s*(!\s*)?([pdqQn=lN]|s(/[^/\\]*(\\.[^/\\]*)*){2}/[gpiIm0-9]*)\s*(;|\n|$))+$`)
})

// sedSpec: -i edits files in place; a script with w, r, e or other commands
// may write files or run programs.
func sedSpec(a argv) effect {
	o := opts{short: "efl", long: []string{"--expression", "--file", "--line-length"}}
	ops := a.operands(o)
	scripts := append(a.values('e', "--expression"), a.values('f', "--file")...)
	files := ops
	if len(scripts) == 0 && len(ops) > 0 {
		scripts, files = ops[:1], ops[1:]
	}
	if a.has("i", "--in-place") || a.hasPrefixWord("-i", "--in-place") {
		return effect{writes: files}
	}
	if a.has("f", "--file") {
		return effect{}
	}
	for _, s := range scripts {
		if s.dynamic || !sedSafeScript().MatchString(s.text) {
			return effect{}
		}
	}
	return effect{readOnly: true, reads: files}
}

// readSpec: read assigns the variables it names, which must not be ones
// that change what later commands run (read PATH).
func readSpec(a argv) effect {
	for _, v := range a.operands(opts{short: "adinNptu"}) {
		if v.dynamic || !safeBareAssignment(v.text) {
			return effect{}
		}
	}
	for _, v := range a.values('a', "") {
		if v.dynamic || !safeBareAssignment(v.text) {
			return effect{}
		}
	}
	return effect{readOnly: true}
}

// fileSpec: file -C compiles a magic file and writes the result.
func fileSpec(a argv) effect {
	if a.has("C", "--compile") {
		return effect{}
	}
	return effect{readOnly: true, reads: a.operands(opts{short: "mfFeP", long: []string{"--magic-file", "--files-from", "--separator", "--exclude", "--parameter"}})}
}

func lsSpec(a argv) effect {
	eff := readsFiles(opts{short: "ITw", long: []string{"--ignore", "--hide", "--width", "--tabsize", "--block-size", "--format", "--sort", "--time", "--time-style", "--quoting-style", "--indicator-style"}})(a)
	eff.recursive = a.has("R", "--recursive")
	return eff
}

// recursively marks the reads of a spec as whole directory trees.
func recursively(spec func(argv) effect) func(argv) effect {
	return func(a argv) effect {
		eff := spec(a)
		eff.recursive = eff.readOnly
		return eff
	}
}
