package sdkproto

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPTransport reaches one of the program's in-process MCP servers: each
// JSON-RPC message is an mcp_message control request naming the server,
// the program's answer carrying the server's reply. With a manifest the
// program sent in initialize, initialize and tools/list are answered from
// it without a round trip, as Claude Code does.
type MCPTransport struct {
	Conn     *Conn
	Server   string
	Manifest *Manifest
}

// mcpMessage is the control request carrying one message to the server.
type mcpMessage struct {
	Subtype    string          `json:"subtype"`
	ServerName string          `json:"server_name"`
	Message    json.RawMessage `json:"message"`
}

// Connect opens the logical connection; nothing is sent until the client writes.
func (t *MCPTransport) Connect(context.Context) (mcp.Connection, error) {
	ctx, cancel := context.WithCancel(context.Background())
	return &mcpConn{t: t, ctx: ctx, cancel: cancel, replies: make(chan jsonrpc.Message, 16)}, nil
}

// mcpConn is one connection; every round trip runs in a goroutine of its
// own, which Close cancels and waits for.
type mcpConn struct {
	t       *MCPTransport
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	replies chan jsonrpc.Message
	once    sync.Once
}

func (c *mcpConn) SessionID() string { return "" }

// Read returns the next reply of the server.
func (c *mcpConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-c.replies:
		return m, nil
	case <-c.ctx.Done():
		return nil, errors.New("the connection to the program's MCP server is closed")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write sends msg to the server; a request's reply arrives through Read.
func (c *mcpConn) Write(_ context.Context, msg jsonrpc.Message) error {
	if c.ctx.Err() != nil {
		return errors.New("the connection to the program's MCP server is closed")
	}
	req, isRequest := msg.(*jsonrpc.Request)
	if isRequest && c.t.Manifest != nil {
		switch result := c.manifestResult(req.Method); {
		case req.Method == "notifications/initialized":
			return nil
		case req.Method == "server/discover" && req.ID.IsValid():
			// The manifest says all there is; the client falls back to initialize.
			c.deliver(&jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found"}})
			return nil
		case result != nil && req.ID.IsValid():
			c.deliver(&jsonrpc.Response{ID: req.ID, Result: result})
			return nil
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encode a message to MCP server %s: %w", c.t.Server, err)
	}
	wantsReply := isRequest && req.ID.IsValid()
	c.wg.Go(func() { c.roundTrip(data, wantsReply) })
	return nil
}

// manifestResult is the manifest's answer to method, or nil.
func (c *mcpConn) manifestResult(method string) json.RawMessage {
	switch method {
	case "initialize":
		return c.t.Manifest.InitializeResult
	case "tools/list":
		return c.t.Manifest.ToolsListResult
	}
	return nil
}

// roundTrip sends one message and, for a request, hands the reply to Read.
func (c *mcpConn) roundTrip(data []byte, wantsReply bool) {
	body, err := c.t.Conn.Request(c.ctx, mcpMessage{Subtype: "mcp_message", ServerName: c.t.Server, Message: data})
	if err != nil || !wantsReply {
		return
	}
	var answer struct {
		MCPResponse json.RawMessage `json:"mcp_response"`
	}
	if json.Unmarshal(body, &answer) != nil || len(answer.MCPResponse) == 0 {
		return
	}
	reply, err := jsonrpc.DecodeMessage(answer.MCPResponse)
	if err == nil {
		c.deliver(reply)
	}
}

func (c *mcpConn) deliver(m jsonrpc.Message) {
	select {
	case c.replies <- m:
	case <-c.ctx.Done():
	}
}

// Close ends the connection and waits for its round trips.
func (c *mcpConn) Close() error {
	c.once.Do(func() {
		c.cancel()
		c.wg.Wait()
	})
	return nil
}
