package webfetch

import (
	"sync"
	"time"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// The cache of fetched pages, Claude Code's: a page is fetched again after
// 15 minutes, and the pages kept add up to at most 50 MB of text.
const (
	cacheTTL   = 15 * time.Minute
	cacheBytes = 50 << 20
)

// page is a fetched page as the cache keeps it.
type page struct {
	// code is the HTTP status; bytes the size of the body downloaded.
	code, bytes int
	contentType string
	// text is the page's text: markdown for HTML.
	text string
	at   time.Time
}

// cache holds the pages a session fetched, by the URL the model asked for.
type cache struct {
	mu    sync.Mutex
	pages map[string]*page
	order []string // URLs, oldest first
	size  int
	now   func() time.Time
}

type cacheKey struct{}

// cacheOf returns the session's cache.
func cacheOf(s *tool.Session) *cache {
	return tool.Value(s, cacheKey{}, func() *cache { return &cache{pages: map[string]*page{}, now: time.Now} })
}

// get returns the page fetched for url within the last cacheTTL.
func (c *cache) get(url string) (*page, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pages[url]
	if !ok || c.now().Sub(p.at) >= cacheTTL {
		return nil, false
	}
	return p, true
}

// put keeps p for url, dropping the oldest pages while the cache is over
// its size; a page larger than the whole cache is not kept.
func (c *cache) put(url string, p *page) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(p.text) > cacheBytes {
		return
	}
	c.remove(url)
	p.at = c.now()
	c.pages[url] = p
	c.order = append(c.order, url)
	c.size += len(p.text)
	for c.size > cacheBytes || (len(c.order) > 0 && c.now().Sub(c.pages[c.order[0]].at) >= cacheTTL) {
		c.remove(c.order[0])
	}
}

// remove forgets url's page.
func (c *cache) remove(url string) {
	p, ok := c.pages[url]
	if !ok {
		return
	}
	delete(c.pages, url)
	c.size -= len(p.text)
	for i, u := range c.order {
		if u == url {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
}
