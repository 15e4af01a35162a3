// Command mini-claude is a terminal coding agent: a language model works on the
// code in the current directory through typed, permission-checked tools.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/mini-claude/mini-claude/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, cli.System(cli.NewClient), os.Args[1:])
	stop()
	os.Exit(code)
}
