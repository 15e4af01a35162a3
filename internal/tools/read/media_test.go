package read

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/leakcheck"
	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encodeJPEG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encodeGIF(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := gif.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// noise is a w x h picture of random pixels, which no format compresses.
func noise(w, h int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range img.Pix {
		img.Pix[i] = byte(rng.Uint32())
	}
	return img
}

func TestImages(t *testing.T) {
	env := newEnv(t)
	webp, err := os.ReadFile(filepath.Join("testdata", "gopher.webp"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"small.png":     encodePNG(t, gradient(100, 50, true)),
		"wide.png":      encodePNG(t, gradient(1600, 100, true)),
		"photo.jpg":     encodeJPEG(t, gradient(2000, 60, false)),
		"anim.gif":      encodeGIF(t, gradient(40, 40, false)),
		"gopher.webp":   webp,
		"named-png.jpg": encodePNG(t, gradient(20, 10, false)),
		"broken.png":    []byte("not a picture at all"),
	}
	for name, data := range files {
		write(t, env.Cwd, name, data)
	}
	tests := []struct {
		file, golden       string
		keptAsIs           bool
		wantW, wantH       int
		wantType, errorHas string
	}{
		{file: "small.png", golden: "image_small_png", keptAsIs: true, wantW: 100, wantH: 50, wantType: "image/png"},
		{file: "wide.png", golden: "image_downscaled_png", wantW: 1568, wantH: 98, wantType: "image/png"},
		{file: "photo.jpg", golden: "image_downscaled_jpeg", wantW: 1568, wantH: 47, wantType: "image/jpeg"},
		{file: "anim.gif", golden: "image_small_gif", keptAsIs: true, wantW: 40, wantH: 40, wantType: "image/gif"},
		{file: "gopher.webp", golden: "image_small_webp", keptAsIs: true, wantW: 75, wantH: 100, wantType: "image/webp"},
		{file: "named-png.jpg", golden: "image_content_type_wins", keptAsIs: true, wantW: 20, wantH: 10, wantType: "image/png"},
		{file: "broken.png", golden: "error_image_broken", errorHas: "not a PNG, JPEG, GIF or WebP image"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			res, err := run(context.Background(), env, `{"file_path":"`+tt.file+`"}`)
			if tt.errorHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errorHas) {
					t.Fatalf("err = %v, want %q", err, tt.errorHas)
				}
				golden(t, tt.golden, strings.ReplaceAll("ERROR: "+err.Error(), env.Cwd, "$DIR"))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Content) != 1 || res.Content[0].Type != llm.BlockImage {
				t.Fatalf("content %+v, want one image block", res.Content)
			}
			src := res.Content[0].Source
			data, _ := base64.StdEncoding.DecodeString(src.Data)
			cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
			if err != nil || cfg.Width != tt.wantW || cfg.Height != tt.wantH || src.MediaType != tt.wantType || src.Type != "base64" {
				t.Errorf("got %s %dx%d (%v), want %s %dx%d", src.MediaType, cfg.Width, cfg.Height, err, tt.wantType, tt.wantW, tt.wantH)
			}
			if kept := bytes.Equal(data, files[tt.file]); kept != tt.keptAsIs {
				t.Errorf("image kept byte for byte: %v, want %v", kept, tt.keptAsIs)
			}
			if cfg.Width > modelImageBudget.side || cfg.Height > modelImageBudget.side || cfg.Width*cfg.Height > modelImageBudget.pixels {
				t.Errorf("%dx%d is over the budget", cfg.Width, cfg.Height)
			}
			dims := res.Output.(Output).File.Dimensions
			if dims.DisplayWidth != cfg.Width || dims.DisplayHeight != cfg.Height {
				t.Errorf("dimensions %+v disagree with the image sent", dims)
			}
			golden(t, tt.golden, blocksText(res.Content))
			if rec, ok := fileaccess.StateOf(env).Lookup(filepath.Join(env.Cwd, tt.file)); !ok || !rec.Full {
				t.Errorf("file state %+v, want a full record", rec)
			}
		})
	}
}

func TestFitImageKeepsWithinByteBudget(t *testing.T) {
	webp, err := os.ReadFile(filepath.Join("testdata", "gopher.webp"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name         string
		data         []byte
		budget       imageBudget
		wantType     string
		wantW, wantH int
	}{
		{"WebP scaled becomes PNG", webp, imageBudget{side: 50, pixels: 10_000, bytes: 1 << 20}, "image/png", 37, 50},
		{"area over the budget", encodePNG(t, gradient(300, 200, false)), imageBudget{side: 1000, pixels: 15_000, bytes: 1 << 20}, "image/png", 150, 100},
		{"PNG over the byte budget becomes JPEG", encodePNG(t, noise(150, 150)), imageBudget{side: 150, pixels: 1 << 20, bytes: 60_000}, "image/jpeg", 150, 150},
		{"JPEG still too big shrinks further", encodeJPEG(t, noise(200, 200)), imageBudget{side: 200, pixels: 1 << 20, bytes: 20_000}, "image/jpeg", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, dims, err := fitImage(context.Background(), tt.data, tt.budget)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := base64.StdEncoding.DecodeString(src.Data)
			cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
			if err != nil || cfg.Width != dims.DisplayWidth || cfg.Height != dims.DisplayHeight {
				t.Errorf("sent %dx%d (%v), dimensions say %dx%d", cfg.Width, cfg.Height, err, dims.DisplayWidth, dims.DisplayHeight)
			}
			if src.MediaType != tt.wantType || len(data) > tt.budget.bytes || max(cfg.Width, cfg.Height) > tt.budget.side || cfg.Width*cfg.Height > tt.budget.pixels {
				t.Errorf("got %s, %d bytes, %dx%d; want %s within %+v", src.MediaType, len(data), cfg.Width, cfg.Height, tt.wantType, tt.budget)
			}
			if tt.wantW > 0 && (cfg.Width != tt.wantW || cfg.Height != tt.wantH) {
				t.Errorf("got %dx%d, want %dx%d", cfg.Width, cfg.Height, tt.wantW, tt.wantH)
			}
		})
	}
}

func TestDecompressionBombRefused(t *testing.T) {
	// A PNG header that claims 20000 x 20000 pixels: refused before decoding.
	header := encodePNG(t, image.NewGray(image.Rect(0, 0, 1, 1)))
	bomb := bytes.Clone(header)
	copy(bomb[16:24], []byte{0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20})
	binary.BigEndian.PutUint32(bomb[29:33], crc32.ChecksumIEEE(bomb[12:29]))
	if _, _, err := fitImage(context.Background(), bomb, modelImageBudget); err == nil || !strings.Contains(err.Error(), "too large to decode safely") {
		t.Fatalf("err = %v, want a refusal to decode", err)
	}
}

// notebook is a notebook with every kind of cell and output Read shows.
func notebook(t *testing.T, language string) []byte {
	t.Helper()
	small := base64.StdEncoding.EncodeToString(encodePNG(t, gradient(100, 50, false)))
	wrapped := small[:40] + "\n" + small[40:]
	nb := map[string]any{
		"cells": []any{
			map[string]any{"cell_type": "markdown", "id": "md1", "metadata": map[string]any{}, "source": []string{"# Title\n", "Some *text*"}},
			map[string]any{"cell_type": "code", "id": "c1", "execution_count": 1, "metadata": map[string]any{},
				"outputs": []any{map[string]any{"name": "stdout", "output_type": "stream", "text": []string{"hello\n", "world\n"}}},
				"source":  []string{"print('hello')\n", "print('world')"}},
			map[string]any{"cell_type": "code", "id": "c2", "execution_count": 2, "metadata": map[string]any{},
				"outputs": []any{map[string]any{"data": map[string]any{"text/plain": []string{"42"}}, "execution_count": 2, "metadata": map[string]any{}, "output_type": "execute_result"}},
				"source":  "6*7"},
			map[string]any{"cell_type": "code", "id": "c3", "execution_count": 3, "metadata": map[string]any{},
				"outputs": []any{map[string]any{"ename": "ZeroDivisionError", "evalue": "division by zero", "output_type": "error", "traceback": []string{"Traceback...", "ZeroDivisionError: division by zero"}}},
				"source":  "1/0"},
			map[string]any{"cell_type": "code", "id": "plot", "execution_count": 4, "metadata": map[string]any{},
				"outputs": []any{map[string]any{"data": map[string]any{"image/png": wrapped, "text/plain": []string{"<Figure size 100x50>"}}, "metadata": map[string]any{}, "output_type": "display_data"}},
				"source":  "plot()"},
			map[string]any{"cell_type": "code", "id": "svg", "execution_count": 5, "metadata": map[string]any{},
				"outputs": []any{
					map[string]any{"data": map[string]any{"image/svg+xml": []string{"<svg/>"}}, "metadata": map[string]any{}, "output_type": "display_data"},
					map[string]any{"data": map[string]any{"text/html": []string{"<b>x</b>"}}, "metadata": map[string]any{}, "output_type": "display_data"},
					map[string]any{"name": "stderr", "output_type": "stream", "text": "warn\n"}},
				"source": ""},
			map[string]any{"cell_type": "code", "id": "exact", "execution_count": 6, "metadata": map[string]any{},
				"outputs": []any{map[string]any{"name": "stdout", "output_type": "stream", "text": strings.Repeat("D", 10_000)}}, "source": "d"},
			map[string]any{"cell_type": "code", "id": "over", "execution_count": 7, "metadata": map[string]any{},
				"outputs": []any{map[string]any{"name": "stdout", "output_type": "stream", "text": strings.Repeat("E", 10_001)}}, "source": "e"},
			map[string]any{"cell_type": "raw", "id": "r1", "metadata": map[string]any{}, "source": "raw text"},
			map[string]any{"cell_type": "code", "execution_count": nil, "metadata": map[string]any{}, "outputs": []any{}, "source": "x = 1"},
		},
		"metadata":       map[string]any{"kernelspec": map[string]any{"language": language, "name": "k", "display_name": "K"}, "language_info": map[string]any{"name": language}},
		"nbformat":       4,
		"nbformat_minor": 5,
	}
	data, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestNotebooks(t *testing.T) {
	env := newEnv(t)
	write(t, env.Cwd, "analysis.ipynb", notebook(t, "python"))
	write(t, env.Cwd, "stats.ipynb", notebook(t, "R"))
	write(t, env.Cwd, "broken.ipynb", []byte(`{"cells": [`))
	write(t, env.Cwd, "blank.ipynb", []byte(`{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`))
	tests := []struct{ file, golden string }{
		{"analysis.ipynb", "notebook_python"},
		{"stats.ipynb", "notebook_r"},
		{"broken.ipynb", "error_notebook_invalid"},
		{"blank.ipynb", "notebook_empty"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			res, err := run(context.Background(), env, `{"file_path":"`+tt.file+`"}`)
			got := ""
			if err != nil {
				got = "ERROR: " + err.Error()
			} else {
				got = blocksText(res.Content)
				rec, ok := fileaccess.StateOf(env).Lookup(filepath.Join(env.Cwd, tt.file))
				if !ok || !rec.Full {
					t.Errorf("file state %+v, want a full record", rec)
				}
			}
			got = strings.ReplaceAll(got, strings.Repeat("D", 10_000), "<D × 10000>")
			golden(t, tt.golden, strings.ReplaceAll(got, env.Cwd, "$DIR"))
		})
	}
}

func TestPDFs(t *testing.T) {
	env := newEnv(t)
	report := []pdfPage{
		{"Quarterly report", "Revenue grew by 12 percent.", "[(Ker) -20 (ned) -400 (words,) -300 (tight) 50 (ly)]"},
		{"Second page", "Totals (in EUR) and notes"},
		{},
	}
	write(t, env.Cwd, "report.pdf", makePDF("1.4", false, report...))
	write(t, env.Cwd, "packed.pdf", makePDF("1.7", true, report...))
	write(t, env.Cwd, "modern.pdf", makePDF("2.0", true, report[:1]...))
	var long []pdfPage
	for i := 1; i <= 25; i++ {
		long = append(long, pdfPage{fmt.Sprintf("This is page %d", i)})
	}
	write(t, env.Cwd, "book.pdf", makePDF("1.4", true, long...))
	write(t, env.Cwd, "fake.pdf", []byte("just text, not a PDF\n"))
	tests := []struct{ input, golden string }{
		{`{"file_path":"report.pdf"}`, "pdf_all_pages"},
		{`{"file_path":"packed.pdf"}`, "pdf_all_pages"},
		{`{"file_path":"report.pdf","pages":"2"}`, "pdf_one_page"},
		{`{"file_path":"modern.pdf"}`, "pdf_version_2"},
		{`{"file_path":"book.pdf"}`, "error_pdf_needs_pages"},
		{`{"file_path":"book.pdf","pages":"21-25"}`, "pdf_page_range"},
		{`{"file_path":"book.pdf","pages":"3-4"}`, "pdf_page_range_more"},
		{`{"file_path":"book.pdf","pages":"24-30"}`, "pdf_range_past_end"},
		{`{"file_path":"book.pdf","pages":"30"}`, "error_pdf_page_missing"},
		{`{"file_path":"book.pdf","pages":"1-21"}`, "error_pdf_too_many_pages"},
		{`{"file_path":"book.pdf","pages":"two"}`, "error_pdf_bad_pages"},
		{`{"file_path":"fake.pdf"}`, "error_pdf_not_pdf"},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			res, err := run(context.Background(), env, tt.input)
			got := ""
			if err != nil {
				got = "ERROR: " + err.Error()
			} else {
				got = res.Content[0].Text
			}
			golden(t, tt.golden, strings.ReplaceAll(got, env.Cwd, "$DIR"))
		})
	}
	for file, full := range map[string]bool{"report.pdf": true, "book.pdf": false} {
		if rec, ok := fileaccess.StateOf(env).Lookup(filepath.Join(env.Cwd, file)); !ok || rec.Full != full {
			t.Errorf("%s: file state %+v, want full=%v", file, rec, full)
		}
	}
}

func TestParsePages(t *testing.T) {
	tests := []struct {
		in          string
		first, last int
		ok          bool
	}{
		{"3", 3, 3, true}, {"1-5", 1, 5, true}, {" 10 - 20 ", 10, 20, true}, {"1-20", 1, 20, true},
		{"1-21", 0, 0, false}, {"0", 0, 0, false}, {"5-3", 0, 0, false}, {"a-b", 0, 0, false}, {"", 0, 0, false}, {"-3", 0, 0, false},
	}
	for _, tt := range tests {
		got, err := parsePages(tt.in)
		if (err == nil) != tt.ok || tt.ok && (got.first != tt.first || got.last != tt.last) {
			t.Errorf("parsePages(%q) = %+v, %v; want %d-%d ok=%v", tt.in, got, err, tt.first, tt.last, tt.ok)
		}
	}
}

// cyclicPDF is a PDF whose page tree holds itself: looking for its first
// page, the parser goes round for ever, reading the tree from the file.
func cyclicPDF() []byte {
	return assemblePDF("1.4", []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [2 0 R] /Count 5 >>",
	})
}

func TestAPDFThatKeepsTheParserBusyIsStopped(t *testing.T) {
	env := newEnv(t)
	write(t, env.Cwd, "cyclic.pdf", cyclicPDF())
	t.Run("by the call's cancellation", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		leakcheck.Ended(t)
		start := time.Now()
		_, err := run(ctx, env, `{"file_path":"cyclic.pdf"}`)
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
			t.Errorf("after %v: %v, want the call's deadline", time.Since(start), err)
		}
	})
	t.Run("past the time a PDF may take", func(t *testing.T) {
		defer func(limit time.Duration) { pdfParseLimit = limit }(pdfParseLimit)
		pdfParseLimit = 200 * time.Millisecond
		leakcheck.Ended(t)
		_, err := run(context.Background(), env, `{"file_path":"cyclic.pdf"}`)
		if err == nil || !strings.Contains(err.Error(), "took longer than 200ms and was stopped") {
			t.Errorf("error %v, want the PDF stopped after 200ms", err)
		}
	})
}
