package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"
)

// editor reads and writes the session's text files through the editor's
// fs/read_text_file and fs/write_text_file, so the tools see unsaved
// buffers and their changes land in them.
type editor struct {
	srv     *Server
	session *session
}

// ReadTextFile asks the editor for the file's text.
func (e *editor) ReadTextFile(ctx context.Context, path string) (string, error) {
	resp, err := e.srv.conn.ReadTextFile(ctx, sdk.ReadTextFileRequest{SessionId: sdk.SessionId(e.session.id), Path: path})
	if err != nil {
		return "", err
	}
	return resp.Content, nil
}

// WriteTextFile has the editor replace the file's text.
func (e *editor) WriteTextFile(ctx context.Context, path, content string) error {
	_, err := e.srv.conn.WriteTextFile(ctx, sdk.WriteTextFileRequest{SessionId: sdk.SessionId(e.session.id), Path: path, Content: content})
	return err
}
