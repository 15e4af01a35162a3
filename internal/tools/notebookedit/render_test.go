package notebookedit

import (
	"testing"

	"github.com/mini-claude/mini-claude/internal/render/rendertest"
)

func TestRenderHooks(t *testing.T) {
	cases := []rendertest.Case{
		{Name: "notebook_replace", Input: `{"notebook_path":"/repo/a.ipynb","cell_id":"c1","new_source":"import pandas as pd\ndf = pd.read_csv('data.csv')"}`,
			Partial: `{"notebook_path":"/repo/a.ip`, Queued: true, Output: "Updated cell c1 with import pandas as pd", Rejected: true},
		{Name: "notebook_insert", Input: `{"notebook_path":"/repo/a.ipynb","edit_mode":"insert","cell_type":"markdown","new_source":"# Title"}`, Output: "Inserted cell new1 with # Title"},
		{Name: "notebook_delete", Input: `{"notebook_path":"/repo/a.ipynb","edit_mode":"delete","cell_id":"c2","new_source":""}`, Output: "Deleted cell c2"},
		{Name: "notebook_error", Input: `{"notebook_path":"/repo/a.ipynb","cell_id":"zz","new_source":"x"}`, Error: "<tool_use_error>Cell with ID \"zz\" not found in notebook.</tool_use_error>"},
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { rendertest.Check(t, Tool, c) })
	}
}
