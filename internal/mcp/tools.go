package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// maxNameLen is the longest tool name the model APIs accept.
const maxNameLen = 64

var unsafeNameChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_-]`) })

// ToolName is the name the model sees for tool of server: mcp__<server>__<tool>,
// characters other than letters, digits, _ and - replaced by _. A name over 64
// characters is cut and ends in a hash of the whole, so two long names stay apart.
func ToolName(server, toolName string) string {
	name := "mcp__" + NormalizeName(server) + "__" + NormalizeName(toolName)
	if len(name) <= maxNameLen {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	suffix := "_" + hex.EncodeToString(sum[:4])
	return name[:maxNameLen-len(suffix)] + suffix
}

// NormalizeName replaces the characters a tool name may not hold by _, as the
// server part of permission rules (mcp__<server>) is written.
func NormalizeName(name string) string {
	return unsafeNameChars().ReplaceAllString(name, "_")
}

// imageTypes are the image formats a tool result may carry to the model.
var imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// newTool adapts one tool of a connected server; its input schema is passed to
// the model intact and its input to the server as the model sent it.
func newTool(c *conn, t *mcp.Tool) (tool.Tool, error) {
	schema, err := json.Marshal(t.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("tool %q of MCP server %q: encode its input schema: %w", t.Name, c.cfg.Name, err)
	}
	readOnly, destructive := false, true
	if a := t.Annotations; a != nil {
		readOnly = a.ReadOnlyHint
		// The protocol's default for destructiveHint is true; it means
		// something only for tools that are not read-only.
		destructive = !readOnly && (a.DestructiveHint == nil || *a.DestructiveHint)
	}
	description := t.Description
	if description == "" {
		description = fmt.Sprintf("The %s tool of the %s MCP server.", t.Name, c.cfg.Name)
	}
	serverTool := t.Name
	built, err := tool.BuildRaw(tool.Def[json.RawMessage, []llm.ContentBlock]{
		Name:               ToolName(c.cfg.Name, t.Name),
		SearchHint:         strings.TrimSpace(c.cfg.Name + " " + t.Title),
		Description:        description,
		MaxResultSizeChars: c.limits.MaxResultSizeChars,
		InterruptBehavior:  tool.Cancel,
		IsReadOnly:         predicate(readOnly),
		IsConcurrencySafe:  predicate(readOnly),
		IsDestructive:      predicate(destructive),
		Call: func(ctx context.Context, in json.RawMessage, _ *tool.Env, progress tool.Progress) ([]llm.ContentBlock, error) {
			return c.call(ctx, serverTool, in, progress)
		},
		MapResult: func(out []llm.ContentBlock) []llm.ContentBlock { return out },
	}, schema)
	if err != nil {
		return nil, fmt.Errorf("tool %q of MCP server %q: %w", t.Name, c.cfg.Name, err)
	}
	return built, nil
}

func predicate(holds bool) func(json.RawMessage) bool {
	if holds {
		return tool.Always[json.RawMessage]
	}
	return tool.Never[json.RawMessage]
}

// resultContent maps a tool result's content to tool_result blocks: text and
// images as they are, anything else as a text description of it. A result
// with no content but structured content gets that as JSON text.
func resultContent(res *mcp.CallToolResult) []llm.ContentBlock {
	var blocks []llm.ContentBlock
	for _, c := range res.Content {
		blocks = append(blocks, contentBlock(c))
	}
	if len(blocks) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			blocks = append(blocks, llm.TextBlock(string(b)))
		}
	}
	return blocks
}

func contentBlock(c mcp.Content) llm.ContentBlock {
	switch c := c.(type) {
	case *mcp.TextContent:
		return llm.TextBlock(c.Text)
	case *mcp.ImageContent:
		if imageTypes[c.MIMEType] {
			return llm.ContentBlock{Type: llm.BlockImage, Source: &llm.ImageSource{
				Type: "base64", MediaType: c.MIMEType, Data: base64.StdEncoding.EncodeToString(c.Data)}}
		}
		return llm.TextBlock(fmt.Sprintf("[image of type %s, %d bytes, not shown: only PNG, JPEG, GIF and WebP images can be shown]", c.MIMEType, len(c.Data)))
	case *mcp.AudioContent:
		return llm.TextBlock(fmt.Sprintf("[audio of type %s, %d bytes, not shown: audio cannot be passed on]", c.MIMEType, len(c.Data)))
	case *mcp.ResourceLink:
		text := fmt.Sprintf("[resource link: %s", c.URI)
		if c.Name != "" {
			text += " (" + c.Name + ")"
		}
		if c.Description != "" {
			text += ": " + c.Description
		}
		return llm.TextBlock(text + "]")
	case *mcp.EmbeddedResource:
		return embeddedResource(c.Resource)
	}
	return llm.TextBlock(fmt.Sprintf("[content of type %T not shown]", c))
}

func embeddedResource(r *mcp.ResourceContents) llm.ContentBlock {
	switch {
	case r == nil:
		return llm.TextBlock("[empty embedded resource]")
	case r.Text != "":
		return llm.TextBlock(fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text))
	case imageTypes[r.MIMEType]:
		return llm.ContentBlock{Type: llm.BlockImage, Source: &llm.ImageSource{
			Type: "base64", MediaType: r.MIMEType, Data: base64.StdEncoding.EncodeToString(r.Blob)}}
	}
	return llm.TextBlock(fmt.Sprintf("[resource %s of type %s, %d bytes of binary data, not shown]", r.URI, r.MIMEType, len(r.Blob)))
}

// errorText joins the text of an isError result, the message the model reads.
func errorText(blocks []llm.ContentBlock) string {
	var parts []string
	for _, b := range blocks {
		if b.Type == llm.BlockText {
			parts = append(parts, b.Text)
		}
	}
	if len(parts) == 0 {
		return "the tool reported an error without a message"
	}
	return strings.Join(parts, "\n")
}

// callError explains a call that got no result: a timeout, a lost server, or
// an error the server answered with.
func callError(ctx context.Context, server string, err error, timeout string) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && timeout != "":
		return fmt.Errorf("the MCP server %q did not answer within %s, so the call was cancelled; ask for less at once, or raise the server's \"timeout\" (milliseconds) in the MCP config", server, timeout)
	case ctx.Err() != nil:
		return fmt.Errorf("the call to MCP server %q was cancelled: %w", server, ctx.Err())
	case errors.Is(err, mcp.ErrConnectionClosed):
		return fmt.Errorf("the MCP server %q is no longer connected (%v); its tools cannot be used in this session", server, err)
	}
	return fmt.Errorf("the MCP server %q refused the call: %v. Check the input against the tool's input schema and call it again", server, err)
}
