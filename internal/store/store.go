// Package store opens latchd's database, SQLite (embedded default) or
// Postgres, and applies the embedded migrations of its dialect.
//
// Queries are written once with ? placeholders; DB.Rebind turns them into
// $1, $2, ... for Postgres. Anything that must differ between the dialects
// lives in the per-dialect migrations, not in Go code.
package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"modernc.org/sqlite"

	"github.com/latchkit/latch/internal/breaker"
)

// Dialect names the SQL dialect of a DB.
type Dialect string

// The dialects latchd supports.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

//go:embed migrations
var migrations embed.FS

// DB is an open database with its dialect. Every call through it is
// bounded and guarded (guard.go): its methods that run statements shadow
// database/sql's to give each its operation's budget.
type DB struct {
	*sql.DB
	Dialect Dialect
	// Now is the clock used for timestamps written by store users; tests replace it.
	Now func() time.Time

	guard *guard
}

// Options bound each use of the database. Zero durations get the defaults;
// a negative one turns that bound off.
type Options struct {
	// ConnectTimeout bounds opening a Postgres connection: dial, TLS and
	// start-up.
	ConnectTimeout time.Duration
	// StatementTimeout bounds one statement with its rows (a transaction's
	// BEGIN, each of its statements and its COMMIT each), once it has its
	// connection.
	StatementTimeout time.Duration
	// PoolTimeout bounds the wait for a pooled connection when all are busy.
	PoolTimeout time.Duration
	// Breaker is the database's circuit breaker; nil: one with the
	// defaults, named "postgres" or "sqlite".
	Breaker *breaker.Breaker
}

// Default bounds of Options: a healthy database answers latchd's queries
// in milliseconds, and a client's request should not wait much longer than
// this on one that does not.
const (
	DefaultConnectTimeout   = 3 * time.Second
	DefaultStatementTimeout = 3 * time.Second
	DefaultPoolTimeout      = 3 * time.Second
)

func (o *Options) defaults(dialect Dialect) {
	if o.ConnectTimeout == 0 {
		o.ConnectTimeout = DefaultConnectTimeout
	}
	if o.StatementTimeout == 0 {
		o.StatementTimeout = DefaultStatementTimeout
	}
	if o.PoolTimeout == 0 {
		o.PoolTimeout = DefaultPoolTimeout
	}
	if o.Breaker == nil {
		o.Breaker = breaker.New(breaker.Config{Name: string(dialect)})
	}
}

// Open opens the database with the default Options. An empty databaseURL
// means SQLite in dataDir/latch.db (or in memory when dataDir is ""). It
// applies pending migrations before returning.
func Open(ctx context.Context, databaseURL, dataDir string) (*DB, error) {
	return OpenWith(ctx, databaseURL, dataDir, Options{})
}

// OpenWith is Open with bounds of its own.
func OpenWith(ctx context.Context, databaseURL, dataDir string, opts Options) (*DB, error) {
	var db *DB
	var err error
	if databaseURL == "" {
		opts.defaults(SQLite)
		db, err = openSQLite(dataDir, newGuard(opts))
	} else {
		opts.defaults(Postgres)
		db, err = openPostgres(databaseURL, newGuard(opts))
	}
	if err != nil {
		return nil, err
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("reach database: %w", err)
	}
	if err := db.migrate(withoutTimeouts(ctx)); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func newGuard(o Options) *guard {
	return &guard{connect: max(o.ConnectTimeout, 0), statement: max(o.StatementTimeout, 0), pool: max(o.PoolTimeout, 0), breaker: o.Breaker}
}

// Breaker is the database's circuit breaker (for readiness and metrics).
func (db *DB) Breaker() *breaker.Breaker { return db.guard.breaker }

// Options are the bounds the database was opened with (0: off).
func (db *DB) Options() Options {
	g := db.guard
	return Options{ConnectTimeout: g.connect, StatementTimeout: g.statement, PoolTimeout: g.pool, Breaker: g.breaker}
}

func openSQLite(dataDir string, g *guard) (*DB, error) {
	// Each in-memory database gets its own name: a shared "file::memory:" would
	// be one database for every Open in the process.
	var b [8]byte
	rand.Read(b[:])
	dsn := "file:mem" + hex.EncodeToString(b[:]) + "?mode=memory&cache=shared"
	if dataDir != "" {
		if err := os.MkdirAll(dataDir, 0o700); err != nil {
			return nil, fmt.Errorf("create data dir: %w", err)
		}
		dsn = "file:" + filepath.Join(dataDir, "latch.db")
	}
	// busy_timeout lets concurrent writers wait instead of failing with SQLITE_BUSY;
	// the pragmas are applied by the driver to every new connection.
	dsn += sep(dsn) + "_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=busy_timeout(5000)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	connector, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	sqlDB := sql.OpenDB(guardedConnector{Connector: connector, g: g})
	if dataDir == "" {
		// An in-memory database exists only as long as one connection is open.
		sqlDB.SetMaxOpenConns(1)
	} else {
		// Readers run in parallel under WAL; keep their connections (and
		// their page caches) instead of the default 2 idle.
		sqlDB.SetMaxIdleConns(16)
	}
	return &DB{DB: sqlDB, Dialect: SQLite, Now: time.Now, guard: g}, nil
}

func sep(dsn string) string {
	if strings.Contains(dsn, "?") {
		return "&"
	}
	return "?"
}

func openPostgres(url string, g *guard) (*DB, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	if cfg.ConnectTimeout != 0 {
		return nil, errors.New("open postgres: the URL sets connect_timeout; set the connect timeout with --database-connect-timeout instead")
	}
	cfg.ConnectTimeout = g.connect
	sqlDB := sql.OpenDB(guardedConnector{Connector: stdlib.GetConnector(*cfg), g: g})
	// Keep as many idle as may be open: database/sql keeps 2 by default, so
	// under concurrent load it would close and reopen backends (a fork and a
	// handshake each) on nearly every query.
	sqlDB.SetMaxOpenConns(20)
	sqlDB.SetMaxIdleConns(20)
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	return &DB{DB: sqlDB, Dialect: Postgres, Now: time.Now, guard: g}, nil
}

// The methods of database/sql that run statements, shadowed so that each
// call is an operation (guard.go): it waits at most PoolTimeout for a
// connection, then StatementTimeout for its statement and rows. A
// failure to get a connection in time is answered as the outage it is.

// ExecContext runs a statement.
func (db *DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx, end := db.guard.begin(ctx)
	defer end()
	res, err := db.DB.ExecContext(ctx, query, args...)
	return res, db.guard.waited(ctx, err)
}

// QueryContext runs a query; the operation ends when its rows are closed.
func (db *DB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	ctx, end := db.guard.begin(ctx)
	rows, err := db.DB.QueryContext(ctx, query, args...)
	if err != nil {
		end()
		return nil, db.guard.waited(ctx, err)
	}
	return rows, nil
}

// QueryRowContext runs a single-row query; the operation ends when the
// row is scanned (or, if the query failed, by its timer).
func (db *DB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	ctx, _ = db.guard.begin(ctx)
	return db.DB.QueryRowContext(ctx, query, args...)
}

// BeginTx begins a transaction; the operation ends with it.
func (db *DB) BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error) {
	ctx, end := db.guard.begin(ctx)
	tx, err := db.DB.BeginTx(ctx, opts)
	if err != nil {
		end()
		return nil, db.guard.waited(ctx, err)
	}
	return tx, nil
}

// PingContext checks that the database answers.
func (db *DB) PingContext(ctx context.Context) error {
	ctx, end := db.guard.begin(ctx)
	defer end()
	return db.guard.waited(ctx, db.DB.PingContext(ctx))
}

// Rebind rewrites ? placeholders for the DB's dialect.
func (db *DB) Rebind(query string) string {
	if db.Dialect != Postgres {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(query[i])
	}
	return b.String()
}

// Exec runs a statement written with ? placeholders.
func (db *DB) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return db.ExecContext(ctx, db.Rebind(query), args...)
}

// Query runs a query written with ? placeholders.
func (db *DB) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return db.QueryContext(ctx, db.Rebind(query), args...)
}

// QueryRow runs a single-row query written with ? placeholders.
func (db *DB) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return db.QueryRowContext(ctx, db.Rebind(query), args...)
}

// InTx runs fn in a transaction, committing when it returns nil.
func (db *DB) InTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// migrationLock is the Postgres advisory lock key migrations hold ("latch"
// in ASCII): a fixed key, so every latchd on one database waits for it.
const migrationLock = 0x6c61746368

// migrate applies, in order and each in its own transaction, the migrations of
// the dialect that are not yet recorded in schema_migrations.
//
// Several nodes may start on one empty database at once. Each transaction
// first takes a lock (Postgres: pg_advisory_xact_lock, released at commit;
// SQLite: BEGIN IMMEDIATE, the driver's _txlock) and then checks
// schema_migrations, so one node applies a migration and the others find it
// recorded; even CREATE TABLE IF NOT EXISTS races without it in Postgres.
func (db *DB) migrate(ctx context.Context) error {
	err := db.migrationTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)`)
		return err
	})
	if err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	dir := "migrations/" + string(db.Dialect)
	entries, err := fs.ReadDir(migrations, dir)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sql") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, name := range names {
		var n int
		if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = ?`, name).Scan(&n); err != nil {
			return fmt.Errorf("read schema_migrations: %w", err)
		}
		if n > 0 {
			continue // the common case, without taking the lock
		}
		body, err := migrations.ReadFile(dir + "/" + name)
		if err != nil {
			return err
		}
		err = db.migrationTx(ctx, func(tx *sql.Tx) error {
			// Another node may have applied it while this one waited.
			if err := tx.QueryRowContext(ctx, db.Rebind(`SELECT COUNT(*) FROM schema_migrations WHERE version = ?`), name).Scan(&n); err != nil || n > 0 {
				return err
			}
			if _, err := tx.ExecContext(ctx, string(body)); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, db.Rebind(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`), name, time.Now().Unix())
			return err
		})
		if err != nil {
			return fmt.Errorf("migration %s: %w", name, err)
		}
	}
	return nil
}

// migrationTx runs fn in a transaction holding the migration lock.
func (db *DB) migrationTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return db.InTx(ctx, func(tx *sql.Tx) error {
		if db.Dialect == Postgres {
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLock)); err != nil {
				return fmt.Errorf("take the migration lock: %w", err)
			}
		}
		return fn(tx)
	})
}

// IsUniqueViolation reports whether err is a unique-constraint violation in either dialect.
func IsUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "SQLSTATE 23505")
}

// ErrNoRows is sql.ErrNoRows, re-exported so callers need not import database/sql.
var ErrNoRows = sql.ErrNoRows

// IsNoRows reports whether err means a query found no row.
func IsNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
