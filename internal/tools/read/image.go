package read

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	_ "image/gif" // registers the GIF decoder with image.Decode
	"image/jpeg"
	"image/png"
	"io"
	"math"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // registers the WebP decoder with image.Decode

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
	"github.com/mini-claude/mini-claude/internal/tools/fileaccess"
)

// imageBudget is the most an image sent to the model may be.
type imageBudget struct {
	// side and pixels bound its size, bytes its encoded length.
	side, pixels, bytes int
}

// modelImageBudget is what the Messages API lets through unscaled: it scales
// anything larger down before the model sees it, so sending more costs upload
// time and nothing else; bytes keeps the base64 payload under 5 MB.
var modelImageBudget = imageBudget{side: 1568, pixels: 1_150_000, bytes: 3_750_000}

const (
	// maxImageFileBytes and maxDecodePixels refuse files too big to decode
	// safely, such as decompression bombs.
	maxImageFileBytes = 64 << 20
	maxDecodePixels   = 100_000_000
	jpegQuality       = 85
)

// imageExtensions are the image types Read shows the model as images.
var imageExtensions = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true}

// readImage returns the image at real as an image block, scaled down to the
// budget when it is larger, and kept byte for byte when it is not.
func readImage(ctx context.Context, env *tool.Env, abs, real string) (Output, error) {
	f, info, err := openRegular(real)
	if err != nil {
		return Output{}, err
	}
	defer f.Close()
	if info.Size() > maxImageFileBytes {
		return Output{}, fmt.Errorf("image %s is %d MB, too large to read. Make a smaller copy with a shell command (for example ImageMagick: convert %s -resize 1568x1568 /tmp/small.png) and Read that",
			abs, info.Size()>>20, shellQuote(abs))
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return Output{}, fmt.Errorf("read %s: %w", abs, err)
	}
	img, dims, err := fitImage(ctx, data, modelImageBudget)
	if err != nil {
		return Output{}, fmt.Errorf("cannot show %s: %w", abs, err)
	}
	fileaccess.StateOf(env).RememberFull(abs, data, info.ModTime())
	return Output{Type: KindImage, File: File{FilePath: abs, Image: img, Dimensions: &dims, OriginalSize: info.Size()}}, nil
}

// fitImage returns data as an image source within the budget: unchanged when
// it already fits, else scaled down and re-encoded (JPEG stays JPEG, other
// types become PNG, or JPEG when the PNG would still be too large).
func fitImage(ctx context.Context, data []byte, budget imageBudget) (*llm.ImageSource, Dimensions, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, Dimensions{}, fmt.Errorf("it is not a PNG, JPEG, GIF or WebP image that can be decoded (%v); check the file type with Bash (file)", err)
	}
	w, h := cfg.Width, cfg.Height
	dims := Dimensions{OriginalWidth: w, OriginalHeight: h, DisplayWidth: w, DisplayHeight: h}
	scale := budget.scale(w, h)
	if scale == 1 && len(data) <= budget.bytes {
		return source("image/"+format, data), dims, nil
	}
	if w*h > maxDecodePixels {
		return nil, dims, fmt.Errorf("it is %dx%d pixels, too large to decode safely. Make a smaller copy with a shell command (for example ImageMagick: convert FILE -resize 1568x1568 /tmp/small.png) and Read that", w, h)
	}
	src, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, dims, fmt.Errorf("it could not be decoded (%v); the file may be damaged", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, dims, err
	}
	for {
		dims.DisplayWidth = max(1, int(float64(w)*scale))
		dims.DisplayHeight = max(1, int(float64(h)*scale))
		scaled := scaleImage(src, dims.DisplayWidth, dims.DisplayHeight)
		mediaType, encoded, err := encodeImage(scaled, format, budget.bytes)
		if err != nil {
			return nil, dims, err
		}
		if len(encoded) <= budget.bytes || dims.DisplayWidth*dims.DisplayHeight <= 1 {
			return source(mediaType, encoded), dims, nil
		}
		scale *= 0.75
	}
}

// scaleImage resizes src to w x h with Catmull-Rom, after a cheap bilinear
// pass down to twice the target size when src is much larger: Catmull-Rom's
// cost grows with the ratio, and the second pass smooths what the first one
// aliases. Sources the scaler has no fast path for are copied to RGBA first.
func scaleImage(src image.Image, w, h int) *image.RGBA {
	bounds := src.Bounds()
	switch src.(type) {
	case *image.RGBA, *image.YCbCr:
	default:
		rgba := image.NewRGBA(bounds)
		draw.Draw(rgba, bounds, src, bounds.Min, draw.Src)
		src = rgba
	}
	if bounds.Dx() > 2*w && bounds.Dy() > 2*h {
		mid := image.NewRGBA(image.Rect(0, 0, 2*w, 2*h))
		draw.ApproxBiLinear.Scale(mid, mid.Bounds(), src, bounds, draw.Src, nil)
		src, bounds = mid, mid.Bounds()
	}
	scaled := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(scaled, scaled.Bounds(), src, bounds, draw.Src, nil)
	return scaled
}

// scale is the factor that brings a w x h image within the budget, at most 1.
func (b imageBudget) scale(w, h int) float64 {
	scale := 1.0
	if long := max(w, h); long > b.side {
		scale = float64(b.side) / float64(long)
	}
	if pixels := float64(w) * float64(h) * scale * scale; pixels > float64(b.pixels) {
		scale *= math.Sqrt(float64(b.pixels) / pixels)
	}
	return scale
}

// encodeImage encodes a scaled image: as JPEG when the original was one, as
// PNG otherwise unless that is over the byte budget, then as JPEG on white.
func encodeImage(img *image.RGBA, format string, maxBytes int) (string, []byte, error) {
	var buf bytes.Buffer
	if format != "jpeg" {
		if err := png.Encode(&buf, img); err != nil {
			return "", nil, fmt.Errorf("encode PNG: %w", err)
		}
		if buf.Len() <= maxBytes {
			return "image/png", buf.Bytes(), nil
		}
		buf.Reset()
	}
	opaque := image.NewRGBA(img.Bounds())
	draw.Draw(opaque, opaque.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	draw.Draw(opaque, opaque.Bounds(), img, img.Bounds().Min, draw.Over)
	if err := jpeg.Encode(&buf, opaque, &jpeg.Options{Quality: jpegQuality}); err != nil {
		return "", nil, fmt.Errorf("encode JPEG: %w", err)
	}
	return "image/jpeg", buf.Bytes(), nil
}

func source(mediaType string, data []byte) *llm.ImageSource {
	return &llm.ImageSource{Type: "base64", MediaType: mediaType, Data: base64.StdEncoding.EncodeToString(data)}
}
