package credentials

import (
	"slices"
	"testing"
)

func TestIsSecretName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"ANTHROPIC_API_KEY", true},
		{"ANTHROPIC_AUTH_TOKEN", true},
		{"OPENAI_API_KEY", true},
		{"CLAUDE_CODE_OAUTH_TOKEN", true},
		{"GITHUB_TOKEN", true},
		{"AWS_SECRET", true},
		{"STRIPE_KEY", true},
		{"openai_api_key", true},
		{"github_Token", true},
		{"PATH", false},
		{"HOME", false},
		{"ANTHROPIC_BASE_URL", false},
		{"KEY", false},
		{"TOKENIZER", false},
		{"KEYBOARD_LAYOUT", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsSecretName(tt.name); got != tt.want {
			t.Errorf("IsSecretName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestChildEnv(t *testing.T) {
	env := []string{
		"PATH=/usr/bin", "ANTHROPIC_API_KEY=sk-ant", "ANTHROPIC_AUTH_TOKEN=bearer",
		"OPENAI_API_KEY=sk-oai", "CLAUDE_CODE_OAUTH_TOKEN=oauth", "GITHUB_TOKEN=gh",
		"anthropic_api_key=lower", "ANTHROPIC_BASE_URL=http://gw", "NOEQUALS", "EMPTY=",
	}
	kept := []string{"PATH=/usr/bin", "GITHUB_TOKEN=gh", "anthropic_api_key=lower", "ANTHROPIC_BASE_URL=http://gw", "NOEQUALS", "EMPTY="}
	tests := []struct {
		name string
		pass []string
		want []string
	}{
		{"drops every credential mini-claude uses, keeps the rest in order", nil, kept},
		{"a passed name stays", []string{"OPENAI_API_KEY"},
			[]string{"PATH=/usr/bin", "OPENAI_API_KEY=sk-oai", "GITHUB_TOKEN=gh", "anthropic_api_key=lower", "ANTHROPIC_BASE_URL=http://gw", "NOEQUALS", "EMPTY="}},
		{"a pass name matches exactly, not in another case", []string{"openai_api_key"}, kept},
		{"passing a name that is no credential changes nothing", []string{"GITHUB_TOKEN", "HOME"}, kept},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ChildEnv(env, tt.pass); !slices.Equal(got, tt.want) {
				t.Errorf("ChildEnv(_, %q) =\n%q\nwant\n%q", tt.pass, got, tt.want)
			}
		})
	}
}

func TestChildEnvRemovesEveryCopyOfACredential(t *testing.T) {
	got := ChildEnv([]string{"OPENAI_API_KEY=a", "X=1", "OPENAI_API_KEY=b"}, nil)
	if !slices.Equal(got, []string{"X=1"}) {
		t.Errorf("ChildEnv = %q, want only X=1", got)
	}
}

func TestChildEnvLeavesItsInputAlone(t *testing.T) {
	env := []string{"ANTHROPIC_API_KEY=sk", "A=1", "B=2"}
	got := ChildEnv(env, nil)
	_ = append(got, "C=3")
	if !slices.Equal(env, []string{"ANTHROPIC_API_KEY=sk", "A=1", "B=2"}) {
		t.Errorf("the input changed: %q", env)
	}
}
