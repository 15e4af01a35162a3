package toolsearch

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mini-claude/mini-claude/internal/tool"
)

// namedServers returns the servers still connecting that a query names: the
// server of a selected name or of an mcp__ prefix, or a server whose name is
// one of the query's words.
func namedServers(c tool.Connecting, query string, selected []string, pending []string) []string {
	var names []string
	add := func(server string) {
		if slices.Contains(pending, server) && !slices.Contains(names, server) {
			names = append(names, server)
		}
	}
	for _, name := range selected {
		if server, ok := c.ServerOf(name); ok {
			add(server)
		}
		if server, ok := strings.CutPrefix(name, "mcp__"); ok {
			server, _, _ = strings.Cut(server, "__")
			add(server)
		}
	}
	for _, word := range strings.Fields(strings.TrimPrefix(query, "+")) {
		word = strings.TrimPrefix(word, "+")
		if server, ok := c.ServerOf(word); ok {
			add(server)
		}
		for _, server := range pending {
			if strings.EqualFold(word, server) {
				add(server)
			}
		}
	}
	return names
}

// await waits for the servers at once, each up to its own start-up timeout,
// and returns the status of each that did not connect, in the servers' order.
func await(ctx context.Context, c tool.Connecting, servers []string) []string {
	problems := make([]string, len(servers))
	var wg sync.WaitGroup
	for i, server := range servers {
		wg.Go(func() {
			if err := c.Await(ctx, server); err != nil {
				problems[i] = err.Error()
			}
		})
	}
	wg.Wait()
	return slices.DeleteFunc(problems, func(p string) bool { return p == "" })
}

// refresh takes in the session's pool as it is now: the tools of servers
// that connected since the request count as deferred, as every tool of a
// server still connecting did. It returns the pool and the deferred tools.
func (st *state) refresh(pool []tool.Tool) (current, deferred []tool.Tool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, t := range pool {
		known := slices.ContainsFunc(st.pool, func(old tool.Tool) bool { return old.Name() == t.Name() })
		if !known && IsMCP(t) {
			st.deferred = append(st.deferred, t)
		}
	}
	st.pool = pool
	return st.pool, st.deferred
}

// serverNotes are the lines a result adds about servers: why each awaited
// server that did not connect failed, and which are still connecting.
func serverNotes(problems, connecting []string) string {
	var b strings.Builder
	for _, p := range problems {
		fmt.Fprintf(&b, "\n%s.", strings.TrimSuffix(p, "."))
	}
	if len(connecting) > 0 {
		fmt.Fprintf(&b, "\nMCP servers still connecting: %s. Their tools are not searched yet: name a server (its name or select:mcp__<server>__<tool>) to wait for it.",
			strings.Join(connecting, ", "))
	}
	return b.String()
}
