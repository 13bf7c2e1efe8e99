package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/latchkit/latch/internal/breaker"
)

// The database is reached only through guardedConn, which puts the three
// bounds of Options and the breaker on every driver call, so that no
// caller anywhere in latchd (a transaction's statements, a row scanned
// after its query returned) waits on the database for longer than its
// budget, and an outage reaches the caller as apperr Unavailable:
//
//   - A call through DB (Exec, Query, QueryRow, InTx and database/sql's
//     methods, which DB shadows) is an operation with one context: it may
//     wait PoolTimeout for a pooled connection, and once the driver has the
//     connection, StatementTimeout for its statement and its rows. A
//     transaction's BEGIN, and later its COMMIT or ROLLBACK, get
//     StatementTimeout each; the statements in between are bounded one by
//     one (next rule), not the transaction as a whole.
//   - Any other driver call (a statement in a transaction, on a *sql.Conn)
//     gets StatementTimeout of its own.
//   - A new Postgres connection gets ConnectTimeout (pgx's).
//   - While the breaker is open, every call fails at once.

// errPoolTimeout and errStatementTimeout are the causes of the deadlines.
var (
	errPoolTimeout      = errors.New("no database connection became free within the pool timeout")
	errStatementTimeout = errors.New("the database did not answer within the statement timeout")
)

type opKey struct{}

// op is one operation's budget (see above): its context is cancelled when
// it ends, or by its timer: first at the pool timeout and, once the driver
// has a connection, at the statement timeout (paused while a transaction
// runs its statements).
type op struct {
	cancel    context.CancelCauseFunc
	statement time.Duration
	started   atomic.Bool

	mu    sync.Mutex
	timer *time.Timer
}

// arm replaces the operation's timer by one cancelling it after d with
// cause; d <= 0: no timer.
func (o *op) arm(d time.Duration, cause error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.timer != nil {
		o.timer.Stop()
		o.timer = nil
	}
	if d > 0 {
		o.timer = time.AfterFunc(d, func() { o.cancel(cause) })
	}
}

// acquired starts the statement budget: the driver has a connection.
func (o *op) acquired() {
	if o.started.CompareAndSwap(false, true) {
		o.arm(o.statement, errStatementTimeout)
	}
}

// pause stops the budget while a transaction runs its statements (each
// bounded on its own); resume starts a statement budget for its end.
func (o *op) pause()  { o.arm(0, nil) }
func (o *op) resume() { o.arm(o.statement, errStatementTimeout) }

// end releases the operation's context; later calls are no-ops.
func (o *op) end() {
	o.arm(0, nil)
	o.cancel(nil)
}

type noTimeoutKey struct{}

// withoutTimeouts marks ctx so that its database calls get no deadlines of
// the store's own: migrations may run for as long as they need.
func withoutTimeouts(ctx context.Context) context.Context {
	return context.WithValue(ctx, noTimeoutKey{}, true)
}

// begin starts an operation on ctx; end (or the operation's timer) releases
// it. Without timeouts configured it returns ctx and a no-op.
func (g *guard) begin(ctx context.Context) (context.Context, func()) {
	if g.pool <= 0 || ctx.Value(noTimeoutKey{}) != nil {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	o := &op{cancel: cancel, statement: g.statement}
	// The timer ends the operation even if no one else does (a QueryRow
	// whose error database/sql keeps in its *sql.Row), so a long-lived
	// parent context never accumulates operations.
	o.arm(g.pool, errPoolTimeout)
	return context.WithValue(ctx, opKey{}, o), o.end
}

func opOf(ctx context.Context) *op {
	o, _ := ctx.Value(opKey{}).(*op)
	return o
}

// guard holds what every guarded driver call needs.
type guard struct {
	connect, statement, pool time.Duration
	breaker                  *breaker.Breaker
}

// enter is the start of every driver call on a connection: the operation
// (if any) has its connection, the breaker is asked, and the call gets its
// context: the operation's, or one bounded by the statement timeout
// (release ends it).
func (g *guard) enter(ctx context.Context) (_ context.Context, release func(), err error) {
	if err := g.admit(ctx); err != nil {
		return ctx, nil, err
	}
	if opOf(ctx) != nil {
		return ctx, func() {}, nil
	}
	if g.statement <= 0 || ctx.Value(noTimeoutKey{}) != nil {
		return ctx, func() {}, nil
	}
	ctx, cancel := context.WithTimeoutCause(ctx, g.statement, errStatementTimeout)
	return ctx, cancel, nil
}

// waited turns the error of an operation that got no connection in time
// (database/sql answers with its context's error) into the outage it is.
func (g *guard) waited(ctx context.Context, err error) error {
	if err != nil && errors.Is(context.Cause(ctx), errPoolTimeout) && errors.Is(err, context.Canceled) {
		return breaker.Unavailable("the database", time.Second, errPoolTimeout)
	}
	return err
}

// admit asks the breaker and starts the statement budget of the
// operation, if any.
func (g *guard) admit(ctx context.Context) error {
	if err := g.breaker.Allow(ctx); err != nil {
		return g.unavailable(err)
	}
	if o := opOf(ctx); o != nil {
		o.acquired()
	}
	return nil
}

// leave records the outcome of a call enter let through and returns the
// error for the caller: an outage as apperr Unavailable (its cause kept),
// anything else unchanged, since database/sql compares some errors
// (driver.ErrSkip, io.EOF) by identity.
func (g *guard) leave(ctx context.Context, err error) error {
	o := outcome(ctx, err)
	g.breaker.Record(ctx, o)
	if o == breaker.Failed {
		return g.unavailable(err)
	}
	return err
}

func (g *guard) unavailable(cause error) error {
	var open *breaker.OpenError
	retry := time.Second
	if errors.As(cause, &open) {
		retry = open.RetryAfter
	}
	return breaker.Unavailable("the database", retry, cause)
}

// outcome classifies a driver call's error: Failed when the database is
// not answering (a deadline passed, the connection was refused or broke),
// Abandoned when the caller went away, Succeeded for an answer the
// database gave on purpose (no rows, a constraint).
func outcome(ctx context.Context, err error) breaker.Outcome {
	switch {
	case err == nil, err == driver.ErrSkip, errors.Is(err, driver.ErrBadConn):
		// database/sql retries a bad connection on another one; that one
		// tells whether the database answers.
		return breaker.Succeeded
	case errors.Is(err, breaker.ErrOpen):
		return breaker.Failed
	case errors.Is(err, context.DeadlineExceeded), errors.Is(context.Cause(ctx), errStatementTimeout), errors.Is(context.Cause(ctx), errPoolTimeout):
		return breaker.Failed
	case errors.Is(err, context.Canceled):
		return breaker.Abandoned
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case len(pgErr.Code) == 5 && pgErr.Code[:2] == "08": // connection exception
			return breaker.Failed
		case pgErr.Code == "57P01", pgErr.Code == "57P02", pgErr.Code == "57P03", pgErr.Code == "53300", pgErr.Code == "57014":
			// shutting down, cannot connect now, too many connections,
			// statement cancelled (the server's statement_timeout)
			return breaker.Failed
		}
		return breaker.Succeeded
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	// pgconn.ErrConnClosed: the driver closed the connection after its socket
	// broke or a statement was cut short; within a transaction database/sql
	// cannot move to another connection, so it reaches the caller.
	if errors.As(err, &connectErr) || errors.As(err, &netErr) || pgconn.Timeout(err) || errors.Is(err, pgconn.ErrConnClosed) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return breaker.Failed
	}
	return breaker.Succeeded
}

// guardedConnector opens guarded connections.
type guardedConnector struct {
	driver.Connector
	g *guard
}

func (c guardedConnector) Connect(ctx context.Context) (driver.Conn, error) {
	if err := c.g.breaker.Allow(ctx); err != nil {
		return nil, c.g.unavailable(err)
	}
	conn, err := c.Connector.Connect(ctx)
	if err = c.g.leave(ctx, err); err != nil {
		return nil, err
	}
	return &guardedConn{inner: conn, g: c.g}, nil
}

// guardedConn is a driver connection whose every call is guarded. It
// offers each optional driver interface, and answers as database/sql
// expects from a driver without it when the inner connection lacks it.
type guardedConn struct {
	inner driver.Conn
	g     *guard
}

var (
	_ driver.ConnBeginTx        = (*guardedConn)(nil)
	_ driver.ConnPrepareContext = (*guardedConn)(nil)
	_ driver.ExecerContext      = (*guardedConn)(nil)
	_ driver.QueryerContext     = (*guardedConn)(nil)
	_ driver.Pinger             = (*guardedConn)(nil)
	_ driver.SessionResetter    = (*guardedConn)(nil)
	_ driver.Validator          = (*guardedConn)(nil)
	_ driver.NamedValueChecker  = (*guardedConn)(nil)
	_ driver.StmtExecContext    = (*guardedStmt)(nil)
	_ driver.StmtQueryContext   = (*guardedStmt)(nil)
	_ driver.NamedValueChecker  = (*guardedStmt)(nil)
	_ driver.RowsNextResultSet  = (*guardedRows)(nil)
)

func (c *guardedConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *guardedConn) Close() error { return c.inner.Close() }

func (c *guardedConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx begins a transaction. Every transaction is an operation (DB
// shadows BeginTx) and the driver keeps the operation's context for the
// commit (pgx does): its timer bounds BEGIN, pauses while the statements
// run (each bounded on its own), and bounds COMMIT or ROLLBACK; the
// operation ends with the transaction.
func (c *guardedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if err := c.g.admit(ctx); err != nil {
		return nil, err
	}
	var tx driver.Tx
	var err error
	if b, ok := c.inner.(driver.ConnBeginTx); ok {
		tx, err = b.BeginTx(ctx, opts)
	} else {
		tx, err = c.inner.Begin()
	}
	if err = c.g.leave(ctx, err); err != nil {
		return nil, err
	}
	if o := opOf(ctx); o != nil {
		o.pause()
	}
	return &guardedTx{inner: tx, g: c.g, ctx: ctx}, nil
}

func (c *guardedConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	ctx, release, err := c.g.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	var st driver.Stmt
	if p, ok := c.inner.(driver.ConnPrepareContext); ok {
		st, err = p.PrepareContext(ctx, query)
	} else {
		st, err = c.inner.Prepare(query)
	}
	if err = c.g.leave(ctx, err); err != nil {
		return nil, err
	}
	return &guardedStmt{inner: st, conn: c}, nil
}

func (c *guardedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	e, ok := c.inner.(driver.ExecerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	ctx, release, err := c.g.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	res, err := e.ExecContext(ctx, query, args)
	return res, c.g.leave(ctx, err)
}

func (c *guardedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := c.inner.(driver.QueryerContext)
	if !ok {
		return nil, driver.ErrSkip
	}
	ctx, release, err := c.g.enter(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, query, args)
	if err = c.g.leave(ctx, err); err != nil {
		release()
		return nil, err
	}
	return &guardedRows{inner: rows, g: c.g, ctx: ctx, release: release}, nil
}

func (c *guardedConn) Ping(ctx context.Context) error {
	p, ok := c.inner.(driver.Pinger)
	if !ok {
		return nil
	}
	ctx, release, err := c.g.enter(ctx)
	if err != nil {
		return err
	}
	defer release()
	return c.g.leave(ctx, p.Ping(ctx))
}

func (c *guardedConn) ResetSession(ctx context.Context) error {
	if r, ok := c.inner.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *guardedConn) IsValid() bool {
	if v, ok := c.inner.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

// CheckNamedValue defers to the driver's own check, or to database/sql's
// default conversion (ErrSkip) when it has none.
func (c *guardedConn) CheckNamedValue(nv *driver.NamedValue) error {
	if ch, ok := c.inner.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(nv)
	}
	return driver.ErrSkip
}

// guardedTx ends its operation with the transaction.
type guardedTx struct {
	inner driver.Tx
	g     *guard
	ctx   context.Context
}

func (t *guardedTx) Commit() error   { return t.finish(t.inner.Commit) }
func (t *guardedTx) Rollback() error { return t.finish(t.inner.Rollback) }

func (t *guardedTx) finish(fn func() error) error {
	o := opOf(t.ctx)
	if o != nil {
		o.resume()
	}
	err := fn()
	if err != nil && outcome(t.ctx, err) == breaker.Failed {
		t.g.breaker.Record(t.ctx, breaker.Failed)
		err = t.g.unavailable(err)
	}
	if o != nil {
		o.end()
	}
	return err
}

// guardedStmt is a prepared statement whose executions are guarded.
type guardedStmt struct {
	inner driver.Stmt
	conn  *guardedConn
}

func (s *guardedStmt) Close() error  { return s.inner.Close() }
func (s *guardedStmt) NumInput() int { return s.inner.NumInput() }

// Exec and Query are the driver's pre-context forms, which database/sql
// does not call on a statement that has ExecContext and QueryContext.
func (s *guardedStmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), named(args))
}

func (s *guardedStmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), named(args))
}

func (s *guardedStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	g := s.conn.g
	ctx, release, err := g.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	var res driver.Result
	if e, ok := s.inner.(driver.StmtExecContext); ok {
		res, err = e.ExecContext(ctx, args)
	} else if vals, verr := values(args); verr != nil {
		err = verr
	} else {
		res, err = s.inner.Exec(vals)
	}
	return res, g.leave(ctx, err)
}

func (s *guardedStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	g := s.conn.g
	ctx, release, err := g.enter(ctx)
	if err != nil {
		return nil, err
	}
	var rows driver.Rows
	if q, ok := s.inner.(driver.StmtQueryContext); ok {
		rows, err = q.QueryContext(ctx, args)
	} else if vals, verr := values(args); verr != nil {
		err = verr
	} else {
		rows, err = s.inner.Query(vals)
	}
	if err = g.leave(ctx, err); err != nil {
		release()
		return nil, err
	}
	return &guardedRows{inner: rows, g: g, ctx: ctx, release: release}, nil
}

func named(args []driver.Value) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, v := range args {
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return out
}

func values(args []driver.NamedValue) ([]driver.Value, error) {
	out := make([]driver.Value, len(args))
	for i, a := range args {
		if a.Name != "" {
			return nil, errors.New("store: the driver does not support named parameters")
		}
		out[i] = a.Value
	}
	return out, nil
}

// CheckNamedValue: the statement's own check, else its connection's (as
// database/sql would ask the connection of a statement without one).
func (s *guardedStmt) CheckNamedValue(nv *driver.NamedValue) error {
	if ch, ok := s.inner.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(nv)
	}
	return s.conn.CheckNamedValue(nv)
}

// guardedRows classifies errors met while reading rows and ends the
// query's budget when closed.
type guardedRows struct {
	inner   driver.Rows
	g       *guard
	ctx     context.Context
	release func()
}

func (r *guardedRows) Columns() []string { return r.inner.Columns() }

func (r *guardedRows) Close() error {
	err := r.inner.Close()
	r.release()
	if o := opOf(r.ctx); o != nil {
		o.end()
	}
	return err
}

func (r *guardedRows) Next(dest []driver.Value) error {
	err := r.inner.Next(dest)
	if err == nil || err == io.EOF {
		return err
	}
	if outcome(r.ctx, err) == breaker.Failed {
		r.g.breaker.Record(r.ctx, breaker.Failed)
		return r.g.unavailable(err)
	}
	return err
}

func (r *guardedRows) HasNextResultSet() bool {
	n, ok := r.inner.(driver.RowsNextResultSet)
	return ok && n.HasNextResultSet()
}

func (r *guardedRows) NextResultSet() error {
	if n, ok := r.inner.(driver.RowsNextResultSet); ok {
		return n.NextResultSet()
	}
	return io.EOF
}
