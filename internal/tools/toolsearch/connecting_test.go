package toolsearch

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mini-claude/mini-claude/internal/mcp"
	"github.com/mini-claude/mini-claude/internal/tool"
)

// startingServers are MCP servers that never answer, under a real manager:
// they stay connecting for the test's length, then fail on their timeout.
type startingServers struct {
	*mcp.Manager
	pool []tool.Tool
}

func (s startingServers) Pool() []tool.Tool { return s.pool }

func connecting(t *testing.T, timeout time.Duration, names ...string) startingServers {
	t.Helper()
	var servers []mcp.Server
	for _, name := range names {
		servers = append(servers, mcp.Server{Name: name, Type: mcp.TransportStdio, Command: "sleep", Args: []string{"60"}, Timeout: timeout})
	}
	m := mcp.Start(servers, mcp.Limits{StartupTimeout: timeout})
	t.Cleanup(m.Close)
	return startingServers{Manager: m}
}

func TestOfferListsServersStillConnecting(t *testing.T) {
	s := tool.NewSession(t.TempDir())
	tool.AttachConnecting(s, connecting(t, time.Minute, "slow", "other"))
	send, deferred := Policy{}.Offer(pool(t), s, 0)
	if !slices.Contains(names(send), Name) {
		t.Errorf("sent %v, want ToolSearch while servers connect", names(send))
	}
	want := []string{connectingEntry("slow"), connectingEntry("other")}
	if !slices.Equal(deferred, want) {
		t.Errorf("deferred = %q, want %q", deferred, want)
	}
	if send, deferred := (Policy{Mode: Never}).Offer(pool(t), s, 0); slices.Contains(names(send), Name) || deferred != nil {
		t.Errorf("with tool search off: sent %v, deferred %v", names(send), deferred)
	}
}

func TestNamedServers(t *testing.T) {
	servers := connecting(t, time.Minute, "slow", "github.com")
	pending := []string{"slow", "github.com"}
	tests := []struct {
		query string
		want  []string
	}{
		{"select:mcp__slow__echo", []string{"slow"}},
		{"select:mcp__slow__*,mcp__github_com__issue", []string{"slow", "github.com"}},
		{"mcp__slow__echo", []string{"slow"}},
		{"echo on the slow server", []string{"slow"}},
		{"+github.com issues", []string{"github.com"}},
		{"read a notebook", nil},
	}
	for _, tt := range tests {
		list, _ := cutSelect(tt.query)
		if got := namedServers(servers, tt.query, list, pending); !slices.Equal(got, tt.want) {
			t.Errorf("namedServers(%q) = %v, want %v", tt.query, got, tt.want)
		}
	}
}

func TestSearchNamingAServerThatNeverConnectsGivesItsStatus(t *testing.T) {
	s := tool.NewSession(t.TempDir())
	servers := connecting(t, 300*time.Millisecond, "hang")
	servers.pool = pool(t)
	tool.AttachConnecting(s, servers)
	Policy{Mode: Always}.Offer(servers.pool, s, 0)
	start := time.Now()
	out, err := search(context.Background(), Input{Query: "select:mcp__hang__echo"}, &tool.Env{Session: s}, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := render(out)[0].Text
	if !strings.HasPrefix(text, NoMatch) || !strings.Contains(text, `the MCP server "hang" failed to start: did not connect within 300ms`) {
		t.Errorf("result:\n%s\nwant no match and the server's status", text)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the search took %s; the server's timeout is 300 ms", took)
	}
}

func TestSelectEveryToolOfAServer(t *testing.T) {
	deferred := []tool.Tool{build(t, fake{name: "mcp__slow__echo"}), build(t, fake{name: "mcp__slow__add"}), build(t, fake{name: "mcp__other__echo"})}
	found, missing := selectByName([]string{"mcp__slow__*", "mcp__none__*"}, deferred, nil)
	if got := names(found); !slices.Equal(got, []string{"mcp__slow__echo", "mcp__slow__add"}) || !slices.Equal(missing, []string{"mcp__none__*"}) {
		t.Errorf("found %v, missing %v", got, missing)
	}
}
