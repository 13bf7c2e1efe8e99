package devnet

import (
	"context"
	"log/slog"
	"sync"

	"github.com/ethereum/go-ethereum/log"
)

// gethLogger adapts an slog logger for go-ethereum, passing only warnings and
// errors: at info level a node logs every sealed block and RPC start-up detail,
// which would drown latchd's own logs in dev mode.
func gethLogger(l *slog.Logger) log.Logger {
	return log.NewLogger(warnOnly{l.Handler()})
}

var routeOnce sync.Once

// routeGethLogs points go-ethereum's package-level logger, which most of its
// internals use instead of the node's logger, at l (warnings and up). It is
// process-wide, so the first devnet's logger wins.
//
// log.SetDefault also replaces slog's default logger when given geth's own
// logger type; wrapping it in rootLogger keeps latchd's slog default intact.
func routeGethLogs(l *slog.Logger) {
	routeOnce.Do(func() {
		log.SetDefault(rootLogger{gethLogger(l.With("component", "geth"))})
	})
}

// rootLogger is a log.Logger that is not go-ethereum's concrete type; see routeGethLogs.
type rootLogger struct{ log.Logger }

// warnOnly is an slog.Handler that drops records below warning level, and
// the warnings a fresh in-memory chain always emits, which mean nothing here.
type warnOnly struct{ h slog.Handler }

// expectedWarnings are go-ethereum warnings that every dev chain start logs.
var expectedWarnings = map[string]bool{
	"Head block is not reachable": true, // a new database has no head yet
}

func (w warnOnly) Enabled(ctx context.Context, level slog.Level) bool {
	return level >= slog.LevelWarn && w.h.Enabled(ctx, level)
}

func (w warnOnly) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < slog.LevelWarn || expectedWarnings[r.Message] {
		return nil
	}
	return w.h.Handle(ctx, r)
}

func (w warnOnly) WithAttrs(attrs []slog.Attr) slog.Handler {
	return warnOnly{w.h.WithAttrs(attrs)}
}

func (w warnOnly) WithGroup(name string) slog.Handler {
	return warnOnly{w.h.WithGroup(name)}
}
