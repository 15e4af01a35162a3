package commands

import "testing"

func TestHeaderNamesTheArgumentsOnlyWhenThereAreAny(t *testing.T) {
	if got := Header("review", "src/auth.go"); got != "<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src/auth.go</command-args>\n" {
		t.Errorf("with arguments: %q", got)
	}
	if got := Header("plain", ""); got != "<command-message>plain</command-message>\n<command-name>/plain</command-name>\n" {
		t.Errorf("without: %q", got)
	}
}
