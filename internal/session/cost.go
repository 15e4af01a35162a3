package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/mini-claude/mini-claude/internal/agent"
	"github.com/mini-claude/mini-claude/internal/llm"
)

// ModelUsage is the usage and cost of one model over a session.
type ModelUsage struct {
	Model    string
	Requests int
	Usage    llm.Usage
	CostUSD  float64
}

// Costs tallies the usage of model requests per model and prices it; safe
// for concurrent use, so sub-agents running in parallel can add to it.
type Costs struct {
	price func(model string, u llm.Usage) float64

	mu     sync.Mutex
	models []*ModelUsage
}

// NewCosts returns an empty tally that prices usage with price; nil prices
// at list price (llm.Cost).
func NewCosts(price func(model string, u llm.Usage) float64) *Costs {
	if price == nil {
		price = llm.Cost
	}
	return &Costs{price: price}
}

// Add counts one request's usage on model.
func (c *Costs) Add(model string, u llm.Usage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range c.models {
		if m.Model == model {
			m.Requests++
			m.Usage = m.Usage.Add(u)
			m.CostUSD += c.price(model, u)
			return
		}
	}
	c.models = append(c.models, &ModelUsage{Model: model, Requests: 1, Usage: u, CostUSD: c.price(model, u)})
}

// OnEvent counts the usage of each assistant message.
func (c *Costs) OnEvent(e agent.Event) {
	if e, ok := e.(agent.AssistantMessage); ok {
		c.Add(e.Model, e.Usage)
	}
}

// Models returns the usage of each model, in the order of first use.
func (c *Costs) Models() []ModelUsage {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]ModelUsage, len(c.models))
	for i, m := range c.models {
		out[i] = *m
	}
	return out
}

// Total returns the requests, usage and cost over every model.
func (c *Costs) Total() ModelUsage {
	var total ModelUsage
	for _, m := range c.Models() {
		total.Requests += m.Requests
		total.Usage = total.Usage.Add(m.Usage)
		total.CostUSD += m.CostUSD
	}
	return total
}

// CostsOf tallies the responses of a transcript and of the transcripts of its
// sub-agents, priced with price (nil: list price).
func CostsOf(path string, price func(model string, u llm.Usage) float64) (*Costs, error) {
	c := NewCosts(price)
	files := []string{path}
	subagents, err := filepath.Glob(filepath.Join(strings.TrimSuffix(path, ".jsonl"), "subagents", "*.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("find the sub-agent transcripts: %w", err)
	}
	for _, file := range append(files, subagents...) {
		l, err := Load(file)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && file != path {
				continue
			}
			return nil, err
		}
		previous := ""
		for _, line := range l.Lines {
			if line.Type == TypeSystem {
				c.addSystem(line)
				continue
			}
			if line.Type != TypeAssistant || line.Message == nil || line.Message.Usage == nil {
				continue
			}
			// Claude Code writes each block of a response on a line of its own, with the response's usage on each.
			if id := line.Message.ID; id == "" || id != previous {
				c.Add(line.Message.Model, *line.Message.Usage)
			}
			previous = line.Message.ID
		}
	}
	return c, nil
}

// addSystem counts the usage a system line records, such as a compaction's summarising request.
func (c *Costs) addSystem(line Line) {
	var meta struct {
		Model string     `json:"model"`
		Usage *llm.Usage `json:"usage"`
	}
	if json.Unmarshal(line.Metadata, &meta) == nil && meta.Usage != nil && *meta.Usage != (llm.Usage{}) {
		c.Add(meta.Model, *meta.Usage)
	}
}

// WriteReport prints the usage and cost of a session, in total and per model.
func (c *Costs) WriteReport(w io.Writer, id string) error {
	total := c.Total()
	fmt.Fprintf(w, "Session:      %s\nRequests:     %d\nTotal cost:   %s\nTotal usage:  %s\n", id, total.Requests, formatCost(total.CostUSD), formatUsage(total.Usage))
	models := c.Models()
	if len(models) == 0 {
		_, err := fmt.Fprintln(w, "Usage by model: none (no model answered in this session)")
		return err
	}
	fmt.Fprintln(w, "Usage by model:")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, m := range models {
		fmt.Fprintf(tw, "  %s:\t%s\t(%s, %s)\n", m.Model, formatUsage(m.Usage), formatCost(m.CostUSD), requests(m.Requests))
	}
	return tw.Flush()
}

func requests(n int) string {
	if n == 1 {
		return "1 request"
	}
	return thousands(n) + " requests"
}

func formatUsage(u llm.Usage) string {
	return fmt.Sprintf("%s input, %s output, %s cache read, %s cache write", thousands(u.InputTokens),
		thousands(u.OutputTokens), thousands(u.CacheReadInputTokens), thousands(u.CacheCreationInputTokens))
}

// formatCost writes dollars as Claude Code does: cents above half a dollar,
// four decimals below.
func formatCost(usd float64) string {
	if usd > 0.5 {
		return fmt.Sprintf("$%.2f", usd)
	}
	return fmt.Sprintf("$%.4f", usd)
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
