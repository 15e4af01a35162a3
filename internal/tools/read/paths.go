package read

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mini-claude/mini-claude/internal/config"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// devicePaths are files that never end, block, or read the terminal; reading
// them would hang the session or fill the context.
var devicePaths = map[string]bool{
	"/dev/zero": true, "/dev/random": true, "/dev/urandom": true, "/dev/full": true,
	"/dev/stdin": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/tty": true,
	"/dev/console": true, "/dev/ptmx": true, "/dev/kmsg": true, "/dev/mem": true,
	"/dev/kmem": true, "/dev/port": true, "/proc/kmsg": true, "/proc/kcore": true,
}

// deviceError refuses a path that names a device or a process's files, judged
// by the path alone so no I/O happens first.
func deviceError(path string) error {
	if devicePaths[path] || strings.HasPrefix(path, "/dev/fd/") || isProcessPath(path) {
		return fmt.Errorf("cannot read %s: it is a device or a process's file, which never ends or blocks. Read a regular file instead; to see what a command prints, run it with Bash", path)
	}
	return nil
}

// isProcessPath reports whether path lies in a process's folder of /proc
// (/proc/self, /proc/thread-self or /proc/<pid>): its fd links, memory and
// environment.
func isProcessPath(path string) bool {
	rest, ok := strings.CutPrefix(path, "/proc/")
	if !ok {
		return false
	}
	first, _, _ := strings.Cut(rest, "/")
	if first == "self" || first == "thread-self" {
		return true
	}
	return first != "" && strings.Trim(first, "0123456789") == ""
}

// binaryExtensions are file types that are not text and that Read has no
// special reader for; built on first use.
var binaryExtensions = sync.OnceValue(func() map[string]bool {
	binary := map[string]bool{}
	for _, ext := range strings.Fields(`
		.bin .exe .dll .so .dylib .o .a .lib .ko .elf .class .jar .war .ear .pyc .pyo .pyd
		.wasm .dex .apk .ipa .aab .deb .rpm .msi .dmg .iso .img .pkg .appimage .snap
		.zip .gz .tgz .tar .bz2 .tbz2 .xz .txz .zst .lz4 .lz .lzma .7z .rar .cab
		.bmp .ico .icns .tif .tiff .psd .heic .heif .avif .cr2 .nef .xcf
		.mp3 .wav .flac .ogg .oga .m4a .aac .wma .aiff .opus .mid .midi
		.mp4 .m4v .mov .avi .mkv .webm .wmv .flv .mpg .mpeg .3gp
		.ttf .otf .woff .woff2 .eot
		.doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp .numbers .pages
		.sqlite .sqlite3 .db .mdb .accdb .parquet .feather .arrow .avro .orc
		.npy .npz .pkl .pickle .pt .pth .onnx .h5 .hdf5 .safetensors .ckpt .tflite .pb
		.swf .blend .fbx .glb .dwg .3ds .sav`) {
		binary[ext] = true
	}
	return binary
})

// binaryExtensionError refuses a file whose extension names a binary format.
func binaryExtensionError(path string) error {
	ext := strings.ToLower(filepath.Ext(path))
	if !binaryExtensions()[ext] {
		return nil
	}
	return binaryError(path, ext)
}

func binaryError(path, ext string) error {
	kind := "a binary file"
	if ext != "" {
		kind = "a binary " + ext + " file"
	}
	return fmt.Errorf("cannot read %s: it is %s, not text. Use a shell command or a script that understands the format (file, unzip -l, xxd | head, strings | head …)", path, kind)
}

// inSessionToolResults reports whether abs lies in a tool-results folder of
// this session, <home>/projects/<project>/<session>/tool-results/, where large
// results are kept for the model to read back: no permission is needed there.
func inSessionToolResults(env *tool.Env, abs string) bool {
	home := config.Home()
	if home == "" || env.SessionID == "" {
		return false
	}
	rel, err := filepath.Rel(realOrClean(filepath.Join(home, "projects")), realOrClean(abs))
	if err != nil {
		return false
	}
	parts := strings.Split(rel, string(filepath.Separator))
	return len(parts) >= 4 && parts[0] != ".." && parts[0] != "." &&
		parts[1] == env.SessionID && parts[2] == "tool-results"
}

func realOrClean(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return filepath.Clean(path)
}

// missingFileError says the file does not exist, where relative paths start,
// and names a file of the same folder the model may have meant.
func missingFileError(env *tool.Env, abs string) error {
	msg := fmt.Sprintf("File does not exist: %s. The current working directory is %s.", abs, env.Cwd)
	if similar := similarFile(abs); similar != "" {
		return fmt.Errorf("%s Did you mean %s?", msg, similar)
	}
	return fmt.Errorf("%s Check the path, or find the file with Glob", msg)
}

// maxEntriesCompared bounds the work of looking for a similar name in a huge folder.
const maxEntriesCompared = 5000

// similarFile returns the path of the file in abs's folder whose name is
// closest to abs's: the same name in another case, then the same name with
// another extension, then a name one typo away (two for long names); "" if
// none is.
func similarFile(abs string) string {
	dir, want := filepath.Split(abs)
	f, err := os.Open(dir)
	if err != nil {
		return ""
	}
	defer f.Close()
	names, _ := f.Readdirnames(maxEntriesCompared)
	best, bestScore := "", noMatch
	for _, name := range names {
		if score := nameDistance(want, name); score < bestScore || score == bestScore && name < best {
			best, bestScore = name, score
		}
	}
	if bestScore == noMatch {
		return ""
	}
	return filepath.Join(dir, best)
}

// noMatch is the nameDistance of names too far apart to suggest.
const noMatch = 100

// nameDistance scores how likely name is the file meant by want, lower being
// likelier: 0 for the same name in another case, 1 for the same stem with
// another extension, 1 + the number of typos for a name with one typo (two
// when want is long), and noMatch otherwise.
func nameDistance(want, name string) int {
	switch {
	case want == name:
		return noMatch
	case strings.EqualFold(want, name):
		return 0
	case stem(want) != "" && strings.EqualFold(stem(want), stem(name)):
		return 1
	}
	allowed := 0
	switch {
	case len(want) >= 8:
		allowed = 2
	case len(want) >= 4:
		allowed = 1
	}
	if d := typos(strings.ToLower(want), strings.ToLower(name), allowed); d <= allowed {
		return 1 + d
	}
	return noMatch
}

func stem(name string) string {
	return strings.TrimSuffix(name, filepath.Ext(name))
}

// typos is the number of single-character insertions, deletions, changes
// and swaps of neighbours that turn a into b (the optimal string alignment
// distance, in bytes); any count above limit is reported as limit+1.
func typos(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	rows := [3][]int{make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev2, prev, cur := rows[(i+1)%3], rows[(i+2)%3], rows[i%3]
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
	}
	return min(rows[len(a)%3][len(b)], limit+1)
}
