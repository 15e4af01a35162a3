// Package natstest runs a NATS server with JetStream inside a test process,
// its store in the test's temporary folder, for the fleet's tests.
package natstest

import (
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Start starts a JetStream-enabled server on a free port of 127.0.0.1 and
// returns its client URL; the server shuts down when the test ends.
func Start(t testing.TB) string {
	t.Helper()
	srv, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: server.RANDOM_PORT, NoSigs: true, NoLog: true,
		JetStream: true, StoreDir: t.TempDir(),
	})
	if err != nil {
		t.Fatalf("natstest: %v", err)
	}
	srv.Start()
	t.Cleanup(func() {
		srv.Shutdown()
		srv.WaitForShutdown()
	})
	if !srv.ReadyForConnections(10 * time.Second) {
		t.Fatal("natstest: the server did not get ready within 10s")
	}
	return srv.ClientURL()
}
