// Package llm holds the provider-neutral conversation model: messages, content
// blocks, tool specs, requests and the events of a streamed answer. Providers
// (llm/anthropic, llm/openai) translate between these types and their wire formats.
package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Role is who authored a message.
type Role string

// The two roles of the Messages API.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// BlockType names the kind of a content block, as spelled in the Anthropic API.
type BlockType string

// The content block kinds the agent produces or consumes.
const (
	BlockText             BlockType = "text"
	BlockThinking         BlockType = "thinking"
	BlockRedactedThinking BlockType = "redacted_thinking"
	BlockToolUse          BlockType = "tool_use"
	BlockToolResult       BlockType = "tool_result"
	BlockImage            BlockType = "image"
	// BlockServerToolUse and BlockWebSearchResult are a server-side tool's
	// call and result, which the provider runs itself (its web search).
	BlockServerToolUse   BlockType = "server_tool_use"
	BlockWebSearchResult BlockType = "web_search_tool_result"
)

// ContentBlock is one block of a message. Which fields are meaningful depends on
// Type; MarshalJSON writes exactly the fields of that type, in the API's shape.
type ContentBlock struct {
	Type BlockType

	// Text is the text of a text block.
	Text string

	// Thinking and Signature belong to a thinking block and go back verbatim.
	Thinking  string
	Signature string
	// Data is the opaque payload of a redacted_thinking block.
	Data string

	// ID, Name and Input describe a tool_use or server_tool_use block; Input
	// is the JSON object the model sent.
	ID    string
	Name  string
	Input json.RawMessage

	// ToolUseID, Content and IsError describe a tool_result block; ToolUseID
	// is also the server_tool_use a web_search_tool_result answers.
	ToolUseID string
	Content   []ContentBlock
	IsError   bool

	// Source is the payload of an image block.
	Source *ImageSource

	// SearchResults are the hits of a web_search_tool_result block, and
	// SearchError its error code when the search failed instead.
	SearchResults []SearchResult
	SearchError   string
}

// SearchResult is one hit of the provider's web search.
type SearchResult struct {
	Title string `json:"title"`
	URL   string `json:"url"`
	// EncryptedContent and PageAge are the provider's own, kept to be sent back as they came.
	EncryptedContent string `json:"encrypted_content,omitempty"`
	PageAge          string `json:"page_age,omitempty"`
}

// ImageSource is the base64 payload of an image block.
type ImageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

// Message is one turn of the conversation.
type Message struct {
	Role    Role           `json:"role"`
	Content []ContentBlock `json:"content"`
}

// TextBlock returns a text content block.
func TextBlock(text string) ContentBlock { return ContentBlock{Type: BlockText, Text: text} }

// ToolResultBlock returns a tool_result block answering the tool_use with the given id.
func ToolResultBlock(toolUseID string, content []ContentBlock, isError bool) ContentBlock {
	return ContentBlock{Type: BlockToolResult, ToolUseID: toolUseID, Content: content, IsError: isError}
}

// UserText returns a user message holding one text block.
func UserText(text string) Message {
	return Message{Role: RoleUser, Content: []ContentBlock{TextBlock(text)}}
}

// Text concatenates the text blocks of the message.
func (m Message) Text() string {
	var s string
	for _, b := range m.Content {
		if b.Type == BlockText {
			s += b.Text
		}
	}
	return s
}

// PromptText is the text of a user message as the user wrote it: its text
// blocks without the reminders sent along with them (see IsReminder); for
// a custom command, "/name args" as typed rather than the command's text.
func (m Message) PromptText() string {
	var s string
	for _, b := range m.Content {
		if b.Type != BlockText || IsReminder(b) {
			continue
		}
		if c := commandHeader().FindStringSubmatch(b.Text); c != nil {
			return strings.TrimSpace("/" + c[1] + " " + c[2])
		}
		s += b.Text
	}
	return s
}

// commandHeader is the block Claude Code opens a custom command's message
// with, naming the command and its arguments.
var commandHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^<command-message>[^<]*</command-message>\n<command-name>/([^<]*)</command-name>\n(?:<command-args>((?s:.*))</command-args>\n)?$`)
})

// IsReminder reports whether the block is a <system-reminder> the client
// added to a user message, such as a file an @path mention attached.
func IsReminder(b ContentBlock) bool {
	return b.Type == BlockText && strings.HasPrefix(b.Text, "<system-reminder>")
}

// ToolUses returns the tool_use blocks of the message, in order.
func (m Message) ToolUses() []ContentBlock {
	var uses []ContentBlock
	for _, b := range m.Content {
		if b.Type == BlockToolUse {
			uses = append(uses, b)
		}
	}
	return uses
}

type textJSON struct {
	Type BlockType `json:"type"`
	Text string    `json:"text"`
}

type thinkingJSON struct {
	Type      BlockType `json:"type"`
	Thinking  string    `json:"thinking"`
	Signature string    `json:"signature"`
}

type redactedJSON struct {
	Type BlockType `json:"type"`
	Data string    `json:"data"`
}

type toolUseJSON struct {
	Type  BlockType       `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

type toolResultJSON struct {
	Type      BlockType `json:"type"`
	ToolUseID string    `json:"tool_use_id"`
	// Content is a string for a lone text block, as Claude Code sends it, else the blocks.
	Content any  `json:"content"`
	IsError bool `json:"is_error,omitempty"`
}

type searchResultJSON struct {
	Type string `json:"type"`
	SearchResult
}

type searchErrorJSON struct {
	Type      string `json:"type"`
	ErrorCode string `json:"error_code"`
}

type webSearchResultJSON struct {
	Type      BlockType `json:"type"`
	ToolUseID string    `json:"tool_use_id"`
	Content   any       `json:"content"`
}

type imageJSON struct {
	Type   BlockType    `json:"type"`
	Source *ImageSource `json:"source"`
}

// MarshalJSON writes the block in the Anthropic API's JSON shape for its type,
// leaving <, > and & unescaped.
func (b ContentBlock) MarshalJSON() ([]byte, error) {
	switch b.Type {
	case BlockText:
		return marshal(textJSON{b.Type, b.Text})
	case BlockThinking:
		return marshal(thinkingJSON{b.Type, b.Thinking, b.Signature})
	case BlockRedactedThinking:
		return marshal(redactedJSON{b.Type, b.Data})
	case BlockToolUse:
		input := b.Input
		if len(input) == 0 {
			input = json.RawMessage("{}")
		}
		return marshal(toolUseJSON{b.Type, b.ID, b.Name, input})
	case BlockToolResult:
		var content any = b.Content
		switch {
		case len(b.Content) == 1 && b.Content[0].Type == BlockText:
			content = b.Content[0].Text
		case b.Content == nil:
			content = []ContentBlock{}
		}
		return marshal(toolResultJSON{b.Type, b.ToolUseID, content, b.IsError})
	case BlockImage:
		return marshal(imageJSON{b.Type, b.Source})
	case BlockServerToolUse:
		input := b.Input
		if len(input) == 0 {
			input = json.RawMessage("{}")
		}
		return marshal(toolUseJSON{b.Type, b.ID, b.Name, input})
	case BlockWebSearchResult:
		var content any = searchErrorJSON{"web_search_tool_result_error", b.SearchError}
		if b.SearchError == "" {
			hits := make([]searchResultJSON, len(b.SearchResults))
			for i, r := range b.SearchResults {
				hits[i] = searchResultJSON{"web_search_result", r}
			}
			content = hits
		}
		return marshal(webSearchResultJSON{b.Type, b.ToolUseID, content})
	}
	return nil, fmt.Errorf("marshal content block: unknown type %q", b.Type)
}

func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

type blockJSON struct {
	Type      BlockType       `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	Data      string          `json:"data"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Source    *ImageSource    `json:"source"`
}

// UnmarshalJSON reads a block in the API's shape; a tool_result's content may be
// a plain string or a list of blocks.
func (b *ContentBlock) UnmarshalJSON(data []byte) error {
	var raw blockJSON
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*b = ContentBlock{
		Type: raw.Type, Text: raw.Text, Thinking: raw.Thinking, Signature: raw.Signature,
		Data: raw.Data, ID: raw.ID, Name: raw.Name, Input: raw.Input,
		ToolUseID: raw.ToolUseID, IsError: raw.IsError, Source: raw.Source,
	}
	if len(raw.Content) == 0 || string(raw.Content) == "null" {
		return nil
	}
	if raw.Type == BlockWebSearchResult {
		return b.unmarshalSearch(raw.Content)
	}
	var text string
	if err := json.Unmarshal(raw.Content, &text); err == nil {
		b.Content = []ContentBlock{TextBlock(text)}
		return nil
	}
	return json.Unmarshal(raw.Content, &b.Content)
}

// unmarshalSearch reads the content of a web_search_tool_result: a list of
// hits, or an error object.
func (b *ContentBlock) unmarshalSearch(content json.RawMessage) error {
	var failed searchErrorJSON
	if json.Unmarshal(content, &failed) == nil {
		b.SearchError = failed.ErrorCode
		if b.SearchError == "" {
			b.SearchError = "unknown"
		}
		return nil
	}
	var hits []searchResultJSON
	if err := json.Unmarshal(content, &hits); err != nil {
		return fmt.Errorf("web_search_tool_result content: %w", err)
	}
	b.SearchResults = make([]SearchResult, len(hits))
	for i, h := range hits {
		b.SearchResults[i] = h.SearchResult
	}
	return nil
}
