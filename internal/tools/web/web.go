// Package web is what the web tools (WebFetch, WebSearch) get from their
// session: the model their side requests go to, which model that is, whether
// the provider searches the web itself, and the user's settings for them.
//
// The tools do not hold a model client themselves: the agent loop gives each
// session a tool.SideModel, which the composition root hands to Attach.
package web

import (
	"sync"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// Config is how the session's web tools reach the model and the web.
type Config struct {
	// SmallModel is the fast model WebFetch's side request runs on; ""
	// means the session's model.
	SmallModel string
	// ServerSearch says the provider runs web searches itself (the
	// Anthropic API's web_search tool).
	ServerSearch bool
	// Settings are the user's settings of the web tools.
	Settings Settings
}

// Settings are the user's settings of the web tools ("webFetch" and
// "webSearch" in settings.json).
type Settings struct {
	// SkipSummary makes WebFetch return the page's text itself, up to
	// 100,000 characters a call, in place of the small model's answer to
	// the call's prompt: no side request, more of the context used.
	SkipSummary bool
	// SearXNG is the base URL of a SearXNG instance WebSearch queries (its
	// JSON API, /search?format=json) in place of the provider's own search.
	SearXNG string
}

// host is what a session offers its web tools.
type host struct {
	mu     sync.Mutex
	config Config
	model  tool.SideModel
	set    bool
}

type hostKey struct{}

// Attach gives a session the web tools' configuration and the side model
// their side requests go to. Without it WebFetch returns the page's text
// itself and WebSearch fails saying what is missing.
func Attach(s *tool.Session, c Config, m tool.SideModel) {
	h := tool.Value(s, hostKey{}, func() *host { return &host{} })
	h.mu.Lock()
	defer h.mu.Unlock()
	h.config, h.model, h.set = c, m, true
}

// Of returns what the session was given; ok is false when nothing was attached.
func Of(s *tool.Session) (c Config, m tool.SideModel, ok bool) {
	h := tool.Value(s, hostKey{}, func() *host { return &host{} })
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.config, h.model, h.set
}
