package indexer

import (
	"context"
	"fmt"
	"time"

	"github.com/latchkit/latch/internal/store"
)

// lockRetry is how often a node that does not hold a chain's lock tries again
// (it takes over within this long after the holder stops).
const lockRetry = 5 * time.Second

// DatabaseLock returns a Config.Lock for db: on Postgres a session advisory
// lock per chain (scoped by schema, so databases shared by tests or tenants
// do not contend), held on a dedicated connection; on SQLite, whose database
// belongs to one process, no lock.
func DatabaseLock(db *store.DB) func(ctx context.Context, chainID uint64) (func(), error) {
	if db.Dialect != store.Postgres {
		return nil
	}
	return func(ctx context.Context, chainID uint64) (func(), error) {
		for {
			conn, err := db.Conn(ctx)
			if err == nil {
				var got bool
				err = conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(hashtext(current_schema() || ':latch-indexer:' || $1::text))`, fmt.Sprint(chainID)).Scan(&got)
				if err == nil && got {
					return func() {
						// A fresh context: the follower's is already cancelled.
						ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
						defer cancel()
						conn.ExecContext(ctx, `SELECT pg_advisory_unlock(hashtext(current_schema() || ':latch-indexer:' || $1::text))`, fmt.Sprint(chainID))
						conn.Close()
					}, nil
				}
				conn.Close()
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(lockRetry):
			}
		}
	}
}
