package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/mini-claude/mini-claude/internal/llm"
)

// CompactTrigger says what started a compaction, as Claude Code's
// compact_boundary spells it.
type CompactTrigger string

// The triggers of a compaction.
const (
	// CompactAuto is a compaction the context's size started, before a request.
	CompactAuto CompactTrigger = "auto"
	// CompactManual is a compaction the user asked for (/compact).
	CompactManual CompactTrigger = "manual"
)

// thresholdPercent is the share of the model's context window above which the
// history is compacted when Options.CompactThreshold is 0.
const thresholdPercent = 80

// maxCompactFailures is how many automatic compactions may fail in a row
// before the session stops trying; each failure costs a request. A compaction
// that cannot get under the threshold stops them at once.
const maxCompactFailures = 3

// summaryPrompt asks the model for the summary that replaces the history.
const summaryPrompt = `The conversation above is about to be compacted to free context: it will be replaced by your summary. Write that summary now. Respond with text only; do not call any tool.

The summary must let you continue the work without the conversation. Cover, in this order:
1. The user's requests and intent, every one of them, in detail.
2. Key technical facts: languages, frameworks, conventions, commands that work (and ones that do not).
3. Files examined, created or changed: for each, why it matters and what changed, with the code snippets the next steps need.
4. Errors met and how they were fixed, and feedback the user gave.
5. What was being done right before this request, precisely, with file names and the last results.
6. Pending work and the next step, quoting the latest instructions verbatim where they matter.

Put the summary between <summary> and </summary>.`

// threshold returns the context size, in input tokens, above which the
// history is compacted before the next request; 0 turns compaction off.
func (a *Agent) threshold() int {
	switch {
	case a.opts.CompactThreshold > 0:
		return a.opts.CompactThreshold
	case a.opts.CompactThreshold < 0:
		return 0
	}
	return llm.ContextWindow(a.opts.Model) * thresholdPercent / 100
}

// contextRoom is how many tokens the results of the calls about to run may
// take together: 70% of what is left below the compaction threshold (below
// the context window when compaction is off), the room Claude Code gives an
// allow_large read.
func (a *Agent) contextRoom() int {
	limit := a.threshold()
	if limit <= 0 {
		limit = llm.ContextWindow(a.opts.Model)
	}
	return max(limit-a.contextTokens(), 0) * 7 / 10
}

// autoCompact makes room before a request when the context is over the
// threshold: first by clearing old large tool results, then, if that is not
// enough, by replacing the history with a summary. A failed summary leaves the
// history as it was; the request goes on either way.
func (a *Agent) autoCompact(ctx context.Context, res *Result) {
	limit := a.threshold()
	if limit <= 0 || a.compactFailures >= maxCompactFailures {
		return
	}
	before := a.contextTokens()
	if before <= limit {
		return
	}
	if a.clearOldResults(before) && a.contextTokens() <= limit {
		return
	}
	if len(a.messages) < 2 {
		return
	}
	started := time.Now()
	usage, err := a.compact(ctx, CompactAuto, "", a.contextTokens())
	res.APIDuration += time.Since(started)
	res.Usage = res.Usage.Add(usage)
	switch {
	case err != nil:
		a.compactFailures++
	case a.contextTokens() > limit:
		// What compaction keeps is over the threshold by itself: summarising
		// again would cost a request a turn and free nothing.
		a.compactFailures = maxCompactFailures
	default:
		a.compactFailures = 0
	}
}

// Compact replaces the history with a summary made by the model and the state
// that is never summarised away, as /compact does; instructions, when not
// empty, tell the model what the summary should focus on. The summarising
// request's usage is reported in the Compacted or CompactionFailed event
// only. /compact is a prompt of its own to hooks, as in Claude Code: its
// hooks get a new prompt id. It must not run while Run does.
func (a *Agent) Compact(ctx context.Context, instructions string) error {
	if len(a.messages) == 0 {
		return errors.New("nothing to compact: the conversation is empty")
	}
	id := uuid.NewString()
	a.promptID = id
	a.lastPromptID.Store(&id)
	_, err := a.compact(ctx, CompactManual, instructions, a.contextTokens())
	return err
}

// compact summarises the history and replaces it by one user message holding
// the summary and the carried state, emitting CompactionStarted, then
// Compacted or CompactionFailed. It returns the summarising request's usage.
func (a *Agent) compact(ctx context.Context, trigger CompactTrigger, instructions string, before int) (llm.Usage, error) {
	a.preCompact(ctx, trigger, instructions)
	a.emit(CompactionStarted{Trigger: trigger, PreTokens: before})
	started := time.Now()
	state := a.carriedState()
	answer, usage, err := a.summarise(ctx, instructions)
	if err != nil {
		err = fmt.Errorf("compact the conversation: %w", err)
		a.emit(CompactionFailed{Trigger: trigger, Err: err, Usage: usage})
		return usage, err
	}
	summary := summaryOf(answer)
	message := llm.UserText(compactedText(summary, state))
	message.Content = append(a.compactedStart(ctx), message.Content...)
	summarised := len(a.messages)
	a.messages = []llm.Message{message}
	a.marks = nil
	a.edited = state.FilesEdited
	a.reported, a.reportedLen = 0, 0
	// Claude Code awaits the PostCompact hooks before it makes the compact
	// boundary the user sees: a hook has run when the compaction shows. The
	// duration, measured before them as in Claude Code, leaves them out.
	took := time.Since(started)
	a.postCompact(ctx, trigger, answer)
	a.emit(Compacted{
		UUID: uuid.NewString(), Trigger: trigger, PreTokens: before, PostTokens: a.contextTokens(),
		Summary: summary, Message: message, State: state, MessagesSummarized: summarised,
		Usage: usage, Duration: took,
	})
	return usage, nil
}

// summarise asks the model for a summary of the history and returns its
// whole answer, the summary between its tags. The request carries
// the session's system prompt and tools, as the API requires tools for a
// history holding tool calls and so the prompt cache is reused; the prompt
// forbids calling them, and any call in the answer is ignored. When the
// provider refuses the request as too large, it asks once more with every
// large tool result cleared.
func (a *Agent) summarise(ctx context.Context, instructions string) (string, llm.Usage, error) {
	prompt := summaryPrompt
	if strings.TrimSpace(instructions) != "" {
		prompt += "\n\nThe user asked the summary to focus on this:\n" + strings.TrimSpace(instructions)
	}
	summary, usage, err := a.askSummary(ctx, a.messages, prompt)
	var apiErr *llm.APIError
	if err != nil && errors.As(err, &apiErr) && (apiErr.Status == 400 || apiErr.Status == 413) {
		if smaller, cleared := clearResults(a.messages, 0, clearMinChars); len(cleared) > 0 {
			var more llm.Usage
			summary, more, err = a.askSummary(ctx, smaller, prompt)
			usage = usage.Add(more)
		}
	}
	return summary, usage, err
}

// askSummary sends history with prompt added at its end and returns the
// model's answer, which must hold a summary.
func (a *Agent) askSummary(ctx context.Context, history []llm.Message, prompt string) (string, llm.Usage, error) {
	msgs := slices.Clone(history)
	if last := msgs[len(msgs)-1]; last.Role == llm.RoleUser {
		msgs[len(msgs)-1] = llm.Message{Role: llm.RoleUser, Content: append(slices.Clone(last.Content), llm.TextBlock(prompt))}
	} else {
		msgs = append(msgs, llm.UserText(prompt))
	}
	specs, system := a.offer()
	req := llm.Request{Model: a.opts.Model, System: system, Messages: msgs, Tools: specs, MaxTokens: a.opts.MaxTokens}
	var usage llm.Usage
	for ev, err := range a.opts.Client.Stream(ctx, req) {
		if err != nil {
			return "", usage, err
		}
		switch ev := ev.(type) {
		case llm.Retry:
			a.emit(StreamRetry{Attempt: ev.Attempt, Wait: ev.Wait, Err: ev.Err})
		case llm.MessageEnd:
			usage = ev.Usage
			answer := ev.Message.Text()
			if summaryOf(answer) == "" {
				return "", usage, errors.New("the model answered the summary request without any text")
			}
			return answer, usage, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return "", usage, err
	}
	return "", usage, errors.New("the model's summary ended without a message")
}

// summaryOf returns the text between <summary> and </summary>, or the whole
// text when the model left the tags out.
func summaryOf(text string) string {
	if _, rest, ok := strings.Cut(text, "<summary>"); ok {
		inner, _, _ := strings.Cut(rest, "</summary>")
		return strings.TrimSpace(inner)
	}
	return strings.TrimSpace(text)
}

// contextTokens estimates the input tokens of the next request: the input the
// provider reported for the last one, plus an estimate of the messages added
// since (or of everything, when no usage is known).
func (a *Agent) contextTokens() int {
	if a.reportedLen == 0 || a.reportedLen > len(a.messages) {
		return a.baseTokens() + estimateTokens(a.messages)
	}
	return a.reported + estimateTokens(a.messages[a.reportedLen:])
}

// observeUsage records the input size the provider reported for the request
// that held the first sent messages.
func (a *Agent) observeUsage(u llm.Usage, sent int) {
	total := u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens
	if total == 0 {
		total = a.baseTokens() + estimateTokens(a.messages[:sent])
	}
	a.reported, a.reportedLen = total, sent
}

// baseTokens estimates the system prompt's and the tool definitions' share of
// a request, the tools as offered in the last request.
func (a *Agent) baseTokens() int {
	return (len(a.opts.System) + a.specChars) / charsPerToken
}

// specsSize is the size of tool definitions in characters.
func specsSize(specs []llm.ToolSpec) int {
	n := 0
	for _, spec := range specs {
		n += len(spec.Name) + len(spec.Description) + len(spec.InputSchema)
	}
	return n
}

// charsPerToken is the rough size of a token in English text and code.
const charsPerToken = 4

// imageTokens is what an image in the history is counted as.
const imageTokens = 1600

// estimateTokens estimates the tokens of messages from their size.
func estimateTokens(msgs []llm.Message) int {
	chars := 0
	for _, m := range msgs {
		for _, b := range m.Content {
			chars += blockChars(b)
		}
	}
	return chars / charsPerToken
}

// blockChars is the size of a block in characters, an image counted as the
// characters of its token estimate.
func blockChars(b llm.ContentBlock) int {
	n := len(b.Text) + len(b.Thinking) + len(b.Input) + len(b.Data)
	if b.Type == llm.BlockImage {
		n += imageTokens * charsPerToken
	}
	for _, c := range b.Content {
		n += blockChars(c)
	}
	return n
}
