// Package storetest runs storage tests against every configured database:
// always SQLite, and Postgres when LATCH_TEST_POSTGRES holds its URL.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	"github.com/latchkit/latch/internal/store"
)

// Each runs fn as a subtest once per configured database, each with a fresh,
// migrated, empty schema.
func Each(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, MustOpenSQLite(t)) })
	if os.Getenv("LATCH_TEST_POSTGRES") != "" {
		t.Run("postgres", func(t *testing.T) { fn(t, MustOpenPostgres(t)) })
	}
}

// MustOpenSQLite opens a migrated SQLite database in a temp dir.
func MustOpenSQLite(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), "", tb.TempDir())
	if err != nil {
		tb.Fatalf("open sqlite: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// MustOpenPostgres opens a migrated Postgres database in a schema of its own,
// dropped when the test ends. It skips the test if LATCH_TEST_POSTGRES is unset.
func MustOpenPostgres(tb testing.TB) *store.DB {
	tb.Helper()
	base := os.Getenv("LATCH_TEST_POSTGRES")
	if base == "" {
		tb.Skip("LATCH_TEST_POSTGRES not set")
	}
	schemaURL, drop := FreshSchema(tb, base)
	db, err := store.Open(context.Background(), schemaURL, "")
	if err != nil {
		tb.Fatalf("open postgres: %v", err)
	}
	tb.Cleanup(func() { db.Close(); drop() })
	return db
}

// FreshSchema creates an empty schema in the Postgres database at base and
// returns a URL whose connections use it, and a func that drops it.
func FreshSchema(tb testing.TB, base string) (string, func()) {
	tb.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	schema := "t_" + hex.EncodeToString(b)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatalf("open postgres: %v", err)
	}
	if _, err := admin.ExecContext(context.Background(), "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		tb.Fatalf("create schema: %v", err)
	}
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("parse LATCH_TEST_POSTGRES: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), func() {
		admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	}
}
