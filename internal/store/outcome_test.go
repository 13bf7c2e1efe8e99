package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/latchkit/latch/internal/breaker"
)

// A statement on a connection the driver closed when the database went
// away (a cut mid-transaction: TestDB_PostgresOutage/cut met it now and
// then) is the database's failure, answered as unavailable, not an error
// of the caller's.
func TestOutcome_ConnClosed(t *testing.T) {
	err := fmt.Errorf("exec: %w", pgconn.ErrConnClosed)
	if got := outcome(context.Background(), err); got != breaker.Failed {
		t.Fatalf("outcome(%v) = %v, want Failed", err, got)
	}
}
