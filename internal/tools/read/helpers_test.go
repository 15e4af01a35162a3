package read

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mini-claude/mini-claude/internal/goldenfile"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// golden compares got with testdata/name.golden, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	goldenfile.Check(t, path, got)
}

// newEnv returns the environment of a session whose cwd is a fresh folder.
func newEnv(t testing.TB) *tool.Env {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &tool.Env{Cwd: dir, SessionID: "session-1", PermissionMode: "default", Session: tool.NewSession(dir)}
}

// write creates the file name under dir with content.
func write(t testing.TB, dir, name string, content []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// run takes the input through decoding, validation and the call, as the
// executor does once permission is granted.
func run(ctx context.Context, env *tool.Env, input string) (tool.Result, error) {
	return tool.Exec(ctx, Tool, env, json.RawMessage(input), nil)
}

// blocksText shows content blocks as text for golden files: text as it is, an
// image by its type and the size it decodes to (its bytes depend on the Go
// release's PNG encoder, so they are left out).
func blocksText(blocks []llm.ContentBlock) string {
	var b strings.Builder
	for i, block := range blocks {
		if i > 0 {
			b.WriteString("\n")
		}
		switch block.Type {
		case llm.BlockText:
			fmt.Fprintf(&b, "[text]\n%s\n", block.Text)
		case llm.BlockImage:
			data, _ := base64.StdEncoding.DecodeString(block.Source.Data)
			cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
			size := "undecodable"
			if err == nil {
				size = fmt.Sprintf("%s %dx%d", format, cfg.Width, cfg.Height)
			}
			fmt.Fprintf(&b, "[image %s %s]\n", block.Source.Type, block.Source.MediaType)
			fmt.Fprintf(&b, "decodes as %s\n", size)
		default:
			fmt.Fprintf(&b, "[%s]\n", block.Type)
		}
	}
	return b.String()
}

// gradient is a w x h test picture that compresses like a photo, not like a flat colour.
func gradient(w, h int, alpha bool) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			a := uint8(255)
			if alpha && x < w/2 {
				a = 128
			}
			copy(img.Pix[img.PixOffset(x, y):], []uint8{uint8(x * 255 / w), uint8(y * 255 / h), uint8((x ^ y) & 0xff), a})
		}
	}
	return img
}

// pdfPage is the text of one page of a generated PDF, one string per line.
type pdfPage []string

// makePDF writes a minimal PDF whose pages show the given lines in Helvetica,
// 12 pt, one Td move per line; a line may hold a TJ array instead of plain
// text when it starts with "[". Compressed pages use FlateDecode.
func makePDF(version string, compress bool, pages ...pdfPage) []byte {
	var objects []string
	fontID := 3 + 2*len(pages)
	var kids []string
	for i, page := range pages {
		pageID, contentID := 3+2*i, 4+2*i
		kids = append(kids, fmt.Sprintf("%d 0 R", pageID))
		var content strings.Builder
		content.WriteString("BT /F1 12 Tf 72 720 Td\n")
		for j, line := range page {
			if j > 0 {
				content.WriteString("0 -16 Td\n")
			}
			if strings.HasPrefix(line, "[") {
				fmt.Fprintf(&content, "%s TJ\n", line)
			} else {
				fmt.Fprintf(&content, "(%s) Tj\n", line)
			}
		}
		content.WriteString("ET\n")
		stream, filter := content.String(), ""
		if compress {
			var z bytes.Buffer
			zw := zlib.NewWriter(&z)
			zw.Write([]byte(stream))
			zw.Close()
			stream, filter = z.String(), " /Filter /FlateDecode"
		}
		objects = append(objects,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>", fontID, contentID),
			fmt.Sprintf("<< /Length %d%s >>\nstream\n%s\nendstream", len(stream), filter, stream))
	}
	widths := strings.TrimSpace(strings.Repeat("500 ", 95))
	objects = append([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages)),
	}, objects...)
	objects = append(objects, fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 126 /Widths [%s] >>", widths))
	return assemblePDF(version, objects)
}

// assemblePDF writes a PDF holding objects, numbered from 1, with its cross
// reference table; object 1 is the catalog.
func assemblePDF(version string, objects []string) []byte {
	var out bytes.Buffer
	fmt.Fprintf(&out, "%%PDF-%s\n", version)
	offsets := make([]int, len(objects))
	for i, obj := range objects {
		offsets[i] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", i+1, obj)
	}
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&out, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return out.Bytes()
}

// allocatedBy returns the bytes fn allocated on the heap.
func allocatedBy(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
