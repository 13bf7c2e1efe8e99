// Command latchd is the Latch server. See `latchd help`.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/latchkit/latch/internal/app"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := app.CLI(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
