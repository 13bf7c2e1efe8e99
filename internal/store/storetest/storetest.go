// Package storetest runs storage tests against every configured database:
// always SQLite, and Postgres when LATCH_TEST_POSTGRES holds its URL.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
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
//
// The database starts as a copy of one this process migrated once (see
// migratedSQLite): running every migration costs about a CPU-second under
// -race, and the tests open hundreds of databases. store.Open still checks
// the copy's migrations, and store's own tests migrate from nothing.
func MustOpenSQLite(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), "", SQLiteDir(tb))
	if err != nil {
		tb.Fatalf("open sqlite: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// SQLiteDir returns a temp dir holding a migrated, empty SQLite database, as
// store.Open leaves a data dir: latchd's tests start Main on it, and its
// store.Open then finds every migration applied (see MustOpenSQLite).
func SQLiteDir(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	image, err := migratedSQLite()
	if err != nil {
		tb.Fatalf("migrate sqlite: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, sqliteFile), image, 0o600); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// sqliteFile is the database file store.Open uses in a data dir.
const sqliteFile = "latch.db"

var migrated struct {
	once  sync.Once
	image []byte
	err   error
}

// migratedSQLite returns the bytes of an empty SQLite database that
// store.Open migrated, made once per process. Close checkpoints the WAL into
// the file, so the file alone is the whole database.
func migratedSQLite() ([]byte, error) {
	migrated.once.Do(func() {
		dir, err := os.MkdirTemp("", "storetest")
		if err != nil {
			migrated.err = err
			return
		}
		defer os.RemoveAll(dir)
		db, err := store.Open(context.Background(), "", dir)
		if err != nil {
			migrated.err = err
			return
		}
		if err := db.Close(); err != nil {
			migrated.err = err
			return
		}
		for _, f := range []string{sqliteFile + "-wal", sqliteFile + "-journal"} {
			if st, err := os.Stat(filepath.Join(dir, f)); err == nil && st.Size() > 0 {
				migrated.err = fmt.Errorf("%s left beside the closed database", f)
				return
			}
		}
		migrated.image, migrated.err = os.ReadFile(filepath.Join(dir, sqliteFile))
	})
	return migrated.image, migrated.err
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
