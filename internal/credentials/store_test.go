package credentials

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSavedKeysLoadBackFromAPrivateFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".mini-claude")
	path, err := Save(dir, Stored{AnthropicAPIKey: "sk-ant-1"})
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, FileName) {
		t.Errorf("saved to %s", path)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, dir: 0o700} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s has mode %o, want %o", p, got, want)
		}
	}
	if _, err := Save(dir, Stored{OpenAIAPIKey: "sk-oai-2"}); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Stored{AnthropicAPIKey: "sk-ant-1", OpenAIAPIKey: "sk-oai-2"}); got != want {
		t.Errorf("loaded %+v, want %+v: a second key must keep the first", got, want)
	}
}

func TestLoad(t *testing.T) {
	cases := []struct {
		name    string
		content string
		want    Stored
		wantErr bool
	}{
		{name: "no file is no keys", want: Stored{}},
		{name: "a key", content: `{"anthropicApiKey":"k"}`, want: Stored{AnthropicAPIKey: "k"}},
		{name: "not JSON", content: `{`, wantErr: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.content != "" {
				os.WriteFile(filepath.Join(dir, FileName), []byte(c.content), 0o600)
			}
			got, err := Load(dir)
			if (err != nil) != c.wantErr || got != c.want {
				t.Errorf("Load = %+v, %v; want %+v, error %v", got, err, c.want, c.wantErr)
			}
		})
	}
}

func TestSaveLeavesAFileItCannotReadAlone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	os.WriteFile(path, []byte("not json"), 0o600)
	if _, err := Save(dir, Stored{AnthropicAPIKey: "k"}); err == nil {
		t.Fatal("Save replaced a file that was not JSON")
	}
	if data, _ := os.ReadFile(path); string(data) != "not json" {
		t.Errorf("the file became %q", data)
	}
}
