package tui

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mini-claude/mini-claude/internal/llm"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// blockKind is what a block of the conversation shows.
type blockKind int

const (
	blockUser blockKind = iota
	blockAssistant
	blockTool
	blockNotice
	blockError
	blockShell
	blockInfo
	// blockCompact is a compaction: text says it happened, body is the
	// message the history was replaced with, shown in full only.
	blockCompact
	// blockWarning is a warning line, such as a hook's.
	blockWarning
)

// block is one entry of the conversation. A finished block's rendering is
// cached per width (and per full/condensed for tools), so drawing a frame
// costs the visible blocks and the live one, whatever the session's length.
type block struct {
	kind blockKind
	// text is the prompt, the assistant's text, a notice, or a shell command.
	text string
	// body is a shell command's output, an info block's text or a compaction's summary.
	body   string
	failed bool
	// live says the block still changes (streaming text, a running tool).
	live bool
	call *toolCall

	// cacheFull (and heightFull) matter only to blocks whose rendering
	// depends on the full/condensed setting (hasFull).
	cacheWidth int
	cacheFull  bool
	cache      []string
	// drawnIn is the last frame that showed the block.
	drawnIn int
	// height is the line count of the last rendering, kept when the
	// rendering itself is dropped, at heightWidth and heightFull.
	height      int
	heightWidth int
	heightFull  bool
}

// hasFull says the block draws differently in full and condensed form.
func (b *block) hasFull() bool {
	return b.kind == blockTool || b.kind == blockShell || b.kind == blockCompact
}

// toolState is where a tool call is in its life.
type toolState int

const (
	toolStreaming toolState = iota
	toolQueued
	toolRunning
	toolDone
	toolFailed
	toolRejected
	toolInterrupted
)

// toolCall is a tool call as the UI shows it.
type toolCall struct {
	id, name string
	input    json.RawMessage
	state    toolState
	started  time.Time
	took     time.Duration
	progress *tool.ProgressEvent
	output   any
	message  string
	// byHook says a PreToolUse hook refused the call.
	byHook bool
	// queued is the call's drawing while it waits, for queuedFor: an Edit's
	// or a Write's reads the file and diffs it, too slow for every frame.
	queued    tool.Text
	queuedFor *tool.RenderOptions
	// sub is the sub-agent an Agent call started, nil for other calls.
	sub *subAgentRun
}

// conversation is the list of blocks and the scroll position.
type conversation struct {
	blocks []*block
	tools  map[string]*block
	// live is the assistant text block being streamed, nil when none.
	live *block
	full bool
	// offset is how many lines the view is scrolled up from the bottom.
	offset int
	// frame counts the windows drawn; cached lists the blocks holding a
	// rendering, so that those long off screen can let it go.
	frame  int
	cached []*block
}

// maxCached is how many blocks keep their rendering before those not on
// screen drop it: memory stays flat however long the session, and a block
// scrolled back into view is drawn again.
const maxCached = 256

func newConversation() *conversation {
	return &conversation{tools: map[string]*block{}}
}

func (c *conversation) add(b *block) {
	c.blocks = append(c.blocks, b)
}

func (c *conversation) clear() {
	c.blocks, c.tools, c.live, c.offset, c.cached = nil, map[string]*block{}, nil, 0, nil
}

func (c *conversation) appendText(s string) {
	if c.live == nil {
		c.live = &block{kind: blockAssistant, live: true}
		c.add(c.live)
	}
	c.live.text += s
}

// finishLive ends the streaming text block; it is rendered as markdown from now on.
func (c *conversation) finishLive() {
	if c.live != nil {
		c.live.live = false
		c.live.cache, c.live.height = nil, 0
		c.live = nil
	}
}

// dropLive removes what streamed since the last complete message: a retried
// request streams it again.
func (c *conversation) dropLive() {
	kept := c.blocks[:0]
	for _, b := range c.blocks {
		if b == c.live || (b.kind == blockTool && b.call.state == toolStreaming) {
			if b.call != nil {
				delete(c.tools, b.call.id)
			}
			continue
		}
		kept = append(kept, b)
	}
	c.blocks, c.live = kept, nil
}

// assistantDone closes the streamed text and gives each tool call its whole input.
func (c *conversation) assistantDone(m llm.Message) {
	c.finishLive()
	for _, use := range m.ToolUses() {
		if b, ok := c.tools[use.ID]; ok {
			b.call.input = use.Input
		}
	}
}

func (c *conversation) toolBlock(id, name string) *block {
	if b, ok := c.tools[id]; ok {
		return b
	}
	c.finishLive()
	b := &block{kind: blockTool, live: true, call: &toolCall{id: id, name: name}}
	c.tools[id] = b
	c.add(b)
	return b
}

func (c *conversation) toolInput(id, name, partial string) {
	b := c.toolBlock(id, name)
	b.call.input = append(b.call.input, partial...)
}

func (c *conversation) toolQueued(id, name string, input json.RawMessage) {
	b := c.toolBlock(id, name)
	b.call.input, b.call.state, b.call.queuedFor = input, toolQueued, nil
}

func (c *conversation) toolStarted(id string) {
	if b, ok := c.tools[id]; ok {
		b.call.state, b.call.started = toolRunning, time.Now()
	}
}

func (c *conversation) toolProgress(id string, ev tool.ProgressEvent) {
	if b, ok := c.tools[id]; ok {
		b.call.progress = &ev
	}
}

func (c *conversation) toolRejected(id, message string, byHook bool) {
	if b, ok := c.tools[id]; ok {
		b.call.state, b.call.message, b.call.byHook = toolRejected, message, byHook
	}
}

// remove takes a block out of the conversation.
func (c *conversation) remove(b *block) {
	if i := slices.Index(c.blocks, b); i >= 0 && b != nil {
		c.blocks = slices.Delete(c.blocks, i, i+1)
	}
}

func (c *conversation) toolFinished(id string, result llm.ContentBlock, output any, took time.Duration) {
	b, ok := c.tools[id]
	if !ok {
		return
	}
	// A finished call may have changed a file a waiting one previews.
	for _, other := range c.tools {
		if other.call.state == toolQueued {
			other.call.queuedFor = nil
		}
	}
	call := b.call
	call.took = took
	text := resultText(result)
	switch {
	case call.state == toolRejected:
	case result.IsError && text == "[Request interrupted by user for tool use]":
		call.state = toolInterrupted
	case result.IsError:
		call.state, call.message = toolFailed, text
	default:
		if s, ok := output.(tool.Slimmer); ok {
			output = s.Slim()
		}
		call.state, call.output = toolDone, output
		if output == nil {
			call.output = text
		}
	}
	b.refresh()
}

// refresh has a tool block drawn anew: it stays live while its call or the
// sub-agent the call started runs, and is cached again once both ended.
func (b *block) refresh() {
	b.live = b.call.state <= toolRunning || b.call.sub.running()
	b.cacheWidth, b.height = 0, 0
}

func resultText(b llm.ContentBlock) string {
	var parts []string
	for _, c := range b.Content {
		if c.Type == llm.BlockText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// toggleFull switches tool results, shell output and compaction summaries
// between condensed and full; cached
// renderings keyed by the other setting are redrawn when next visible.
func (c *conversation) toggleFull() { c.full = !c.full }

func (c *conversation) scroll(lines int) { c.offset = max(0, c.offset+lines) }

func (c *conversation) scrollToBottom() { c.offset = 0 }

// window returns the lines to show in height rows at width columns: it walks
// back from the last block, rendering (or taking from cache) only the blocks
// that reach the screen; blocks below a scrolled-up window count by their
// remembered height.
func (c *conversation) window(r *renderer, width, height int) []string {
	c.frame++
	var rows []string
	skip := c.offset
	i := len(c.blocks) - 1
	for ; i >= 0 && len(rows) < height; i-- {
		b := c.blocks[i]
		if n := c.heightOf(r, b, width) + 1; skip >= n {
			skip -= n
			continue
		}
		lines := c.linesOf(r, b, width)
		lines = append(lines[:len(lines):len(lines)], "")
		rows = append(lines[:len(lines)-skip], rows...)
		skip = 0
	}
	if i < 0 && len(rows) < height && c.offset > 0 {
		c.offset = max(0, c.offset-(height-len(rows))-skip)
		return c.window(r, width, height)
	}
	c.evict()
	return rows[max(0, len(rows)-height):]
}

// heightOf is the number of lines of b at width, from its rendering or the
// height remembered when it was last rendered.
func (c *conversation) heightOf(r *renderer, b *block, width int) int {
	if !b.live && b.heightWidth == width && (!b.hasFull() || b.heightFull == c.full) && b.height > 0 {
		return b.height
	}
	return len(c.linesOf(r, b, width))
}

func (c *conversation) linesOf(r *renderer, b *block, width int) []string {
	if b.live {
		return r.block(b, width, c.full)
	}
	b.drawnIn = c.frame
	if b.cache == nil {
		c.cached = append(c.cached, b)
	}
	if b.cache == nil || b.cacheWidth != width || (b.hasFull() && b.cacheFull != c.full) {
		b.cache, b.cacheWidth, b.cacheFull = r.block(b, width, c.full), width, c.full
		b.height, b.heightWidth, b.heightFull = len(b.cache), width, c.full
	}
	return b.cache
}

// evict drops the renderings of blocks not in the last frame once more than
// maxCached blocks hold one.
func (c *conversation) evict() {
	if len(c.cached) <= maxCached {
		return
	}
	kept := c.cached[:0]
	for _, b := range c.cached {
		if b.drawnIn == c.frame {
			kept = append(kept, b)
		} else {
			b.cache = nil
		}
	}
	clear(c.cached[len(kept):])
	c.cached = kept
}

func itoa(n int) string { return strconv.Itoa(n) }

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
