package credentials

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mini-claude/mini-claude/internal/atomicfile"
)

// FileName is the file, in the user's own folder (config.Home), that holds
// the keys pasted into the first-run setup screen. It is written with mode
// 0600 and never looked for in a project.
const FileName = "credentials.json"

// Stored are the keys of the credentials file; the environment's variables
// win over them.
type Stored struct {
	// AnthropicAPIKey stands for ANTHROPIC_API_KEY.
	AnthropicAPIKey string `json:"anthropicApiKey,omitempty"`
	// OpenAIAPIKey stands for OPENAI_API_KEY.
	OpenAIAPIKey string `json:"openaiApiKey,omitempty"`
}

// Load reads the credentials file of the user's folder dir; a missing file
// (or dir "") is no keys and no error.
func Load(dir string) (Stored, error) {
	var s Stored
	if dir == "" {
		return s, nil
	}
	path := filepath.Join(dir, FileName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read the credentials file: %w", err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("the credentials file %s is not valid JSON: %w", path, err)
	}
	return s, nil
}

// Save merges the keys set in s into the credentials file of the user's
// folder dir, keeping the others, and returns the file's path. The folder is
// created private (0700) and the file is replaced whole with mode 0600, so
// the key is never readable by others, not even for a moment.
func Save(dir string, s Stored) (string, error) {
	if dir == "" {
		return "", errors.New("save the key: no home folder is known (set HOME or MINI_CLAUDE_HOME)")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("save the key: %w", err)
	}
	path := filepath.Join(dir, FileName)
	err := atomicfile.Update(path, 0o600, func(old []byte) ([]byte, error) {
		var merged Stored
		if len(old) > 0 {
			if err := json.Unmarshal(old, &merged); err != nil {
				return nil, fmt.Errorf("%s is not valid JSON, so it was not changed: %w", path, err)
			}
		}
		if s.AnthropicAPIKey != "" {
			merged.AnthropicAPIKey = s.AnthropicAPIKey
		}
		if s.OpenAIAPIKey != "" {
			merged.OpenAIAPIKey = s.OpenAIAPIKey
		}
		out, err := json.MarshalIndent(merged, "", "  ")
		return append(out, '\n'), err
	})
	if err != nil {
		return "", fmt.Errorf("save the key: %w", err)
	}
	return path, nil
}
