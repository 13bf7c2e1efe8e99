package bundler

import (
	"context"
	"database/sql"
	"sync"

	"github.com/latchkit/latch/internal/store"
)

// leader makes one latchd node the bundler of a network when several share
// a Postgres database: bundles from two nodes would reuse the bundler key's
// nonces and send the same operations twice. The node holding a
// session-level advisory lock on the network bundles; the others accept
// operations into the shared mempool and leave bundling to it, and take
// over when its connection goes. With SQLite (one process) it always leads.
type leader struct {
	db  *store.DB
	key string

	mu   sync.Mutex
	conn *sql.Conn // holds the lock while leading
}

// lead reports whether this node bundles the network now, trying to take
// the lock when it does not hold it.
func (l *leader) lead(ctx context.Context) bool {
	if l.db.Dialect != store.Postgres {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn != nil {
		if err := l.conn.PingContext(ctx); err == nil {
			return true
		}
		l.conn.Close() // the lock went with the session
		l.conn = nil
	}
	conn, err := l.db.Conn(ctx)
	if err != nil {
		return false
	}
	var got bool
	if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(hashtextextended($1, 17))`, l.key).Scan(&got); err != nil || !got {
		conn.Close()
		return false
	}
	l.conn = conn
	return true
}

// release gives the lock up.
func (l *leader) release() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.conn != nil {
		l.conn.Close()
		l.conn = nil
	}
}
