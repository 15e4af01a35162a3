package read

import (
	"testing"

	"github.com/mini-claude/mini-claude/internal/render/rendertest"
)

func TestRenderHooks(t *testing.T) {
	cases := []rendertest.Case{
		{Name: "read_text", Input: `{"file_path":"/repo/main.go","offset":10,"limit":3}`, Partial: `{"file_path":"/repo/ma`,
			Output: Output{Type: KindText, File: File{FilePath: "/repo/main.go", Content: "func main() {\n\tfmt.Println(\"a line long enough to pass eighty columns when it is numbered and indented\")\n}", StartLine: 10, NumLines: 3, TotalLines: 40}}},
		{Name: "read_image", Input: `{"file_path":"/repo/logo.png"}`,
			Output: Output{Type: KindImage, File: File{FilePath: "/repo/logo.png", Dimensions: &Dimensions{OriginalWidth: 640, OriginalHeight: 480, DisplayWidth: 640, DisplayHeight: 480}}}},
		{Name: "read_pdf", Input: `{"file_path":"/repo/paper.pdf","pages":"1-2"}`,
			Output: Output{Type: KindPDF, File: File{FilePath: "/repo/paper.pdf", Pages: []Page{{}, {}}, TotalPages: 9}}},
		{Name: "read_error", Input: `{"file_path":"/repo/missing.go"}`, Error: "<tool_use_error>File does not exist. Current working directory: /repo</tool_use_error>"},
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { rendertest.Check(t, Tool, c) })
	}
}
