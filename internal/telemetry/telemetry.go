// Package telemetry ingests the analytics and error events AppKit posts to its
// pulse API (api-shapes §2: POST /e and POST /batch), stores them per project
// and day, and summarises them for operators.
//
// It applies the client-side rules of spec §7 on the server as well, since
// clients cannot be trusted to: MODAL_CREATED is never stored, a project with
// analytics off keeps only the mandatory events and errors, and error events
// are capped at 5 per 60 s per client IP (spec §9). Events older than the
// configured retention are deleted by a background loop (RunRetention).
package telemetry

import (
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/ratelimit"
	"github.com/latchkit/latch/internal/store"
)

// Defaults of the limits a Config leaves unset.
const (
	// DefaultRequestLimit requests per DefaultRequestWindow per IP, on each
	// ingest route. AppKit flushes at most every 10 s per page, so 60 leaves
	// room for many tabs behind one NAT.
	DefaultRequestLimit  = 60
	DefaultRequestWindow = 10 * time.Second
	// ErrorLimit error events per ErrorWindow per client IP (spec §7, §9).
	ErrorLimit  = 5
	ErrorWindow = 60 * time.Second
	// DefaultRetention is how long events are kept by default.
	DefaultRetention = 90 * 24 * time.Hour
	// RetentionInterval is how often RunRetention deletes expired events.
	RetentionInterval = time.Hour
	// pruneBatch rows are deleted per statement, so a large backlog does
	// not hold one long transaction.
	pruneBatch = 5000
)

// Event names with special handling (api-shapes §2, spec §7).
const modalCreated = "MODAL_CREATED"

// mandatoryEvents are sent by AppKit even when analytics is disabled
// (EventsController MANDATORY_EVENTS), so they are kept for such projects.
var mandatoryEvents = map[string]bool{
	"INITIALIZE":           true,
	"CONNECT_SUCCESS":      true,
	"SOCIAL_LOGIN_SUCCESS": true,
}

// Config configures a Service. Zero values get defaults.
type Config struct {
	// AdminToken guards GET /v1/analytics/summary; empty disables the endpoint.
	AdminToken string
	// ClientIP returns the client address used as a rate-limit key; the
	// default is the peer address (httpx.ClientIP without trusted proxies).
	ClientIP func(*http.Request) string
	// RequestLimiter limits ingest requests per client IP (default
	// DefaultRequestLimit per DefaultRequestWindow, in memory).
	RequestLimiter ratelimit.Limiter
	// ErrorLimiter limits stored error events per client IP (default
	// ErrorLimit per ErrorWindow, in memory).
	ErrorLimiter ratelimit.Limiter
	// Retention is how long events are kept after they occurred; 0 keeps
	// them forever. RunRetention enforces it.
	Retention time.Duration
	// Now is the clock; tests replace it. Default memory limiters use it too.
	Now func() time.Time
	// BufferBytes bounds the events held in memory while the database is
	// away (default DefaultBufferBytes).
	BufferBytes int64
	// OnBufferDrop and OnBufferFlush, when set, are called with the number
	// of events refused because the buffer was full, and of buffered events
	// written to the database (metrics).
	OnBufferDrop, OnBufferFlush func(events int)
}

// Service ingests and summarises telemetry events.
type Service struct {
	db  *store.DB
	cfg Config
	buf buffer
}

// New returns a Service storing into db.
func New(db *store.DB, cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.ClientIP == nil {
		cfg.ClientIP = func(r *http.Request) string { return httpx.ClientIP(r, nil) }
	}
	if cfg.RequestLimiter == nil {
		m := ratelimit.NewMemory(DefaultRequestLimit, DefaultRequestWindow)
		m.Now = cfg.Now
		cfg.RequestLimiter = m
	}
	if cfg.ErrorLimiter == nil {
		m := ratelimit.NewMemory(ErrorLimit, ErrorWindow)
		m.Now = cfg.Now
		cfg.ErrorLimiter = m
	}
	if cfg.BufferBytes <= 0 {
		cfg.BufferBytes = DefaultBufferBytes
	}
	return &Service{db: db, cfg: cfg, buf: buffer{max: cfg.BufferBytes, wake: make(chan struct{}, 1)}}
}

// Ingested is what Ingest did with a request's events.
type Ingested struct {
	// Stored counts new rows (a repeated eventId is stored once and not
	// counted).
	Stored int
	// Dropped counts error events refused by the error cap.
	Dropped int
	// Buffered counts events held in memory because the database was away;
	// RunBuffer writes them once it is back.
	Buffered int
}

// Ingest validates events and stores those the project's rules keep, all in
// one transaction. p must not be nil. rateKey identifies the sender for the
// error cap: its IP (its rate-limit key), never a client-chosen id.
//
// When the database is away (or does not answer within storeBudget), the
// kept events are held in memory, within Config.BufferBytes, and written
// when it is back: Ingested.Buffered counts them. Events skipped by rule
// (MODAL_CREATED, non-mandatory events with analytics off) are counted
// nowhere.
//
// Errors: an *apperr.Error with code Invalid naming the field
// (events[i].<field>) when any event is invalid, in which case nothing is
// stored; Unavailable when the database is away and the buffer is full
// (nothing is kept: the client may retry); any other error is internal.
func (s *Service) Ingest(ctx context.Context, p *project.Project, rateKey string, events []Event) (Ingested, error) {
	var out Ingested
	now := s.cfg.Now()
	for i := range events {
		if err := events[i].Validate("events["+strconv.Itoa(i)+"]", now); err != nil {
			return out, err
		}
	}
	keep := make([]Event, 0, len(events))
	for _, e := range events {
		if !kept(p, e) {
			continue
		}
		if e.Type == TypeError {
			ok, err := s.allowError(ctx, p.ID, rateKey)
			if err != nil {
				return out, err
			}
			if !ok {
				out.Dropped++
				continue
			}
		}
		keep = append(keep, e)
	}
	if len(keep) == 0 {
		return out, nil
	}
	sctx, cancel := context.WithTimeout(ctx, storeBudget)
	defer cancel()
	stored, err := s.insert(sctx, p.ID, now, keep)
	if err == nil {
		out.Stored = stored
		return out, nil
	}
	if ctx.Err() != nil || (apperr.Code(err) != apperr.Unavailable && sctx.Err() == nil) {
		return out, err
	}
	// The database is away: keep the events for it.
	if !s.buf.add(pending{projectID: p.ID, received: now, events: keep}) {
		if s.cfg.OnBufferDrop != nil {
			s.cfg.OnBufferDrop(len(keep))
		}
		return out, &apperr.Error{Code: apperr.Unavailable, Message: "Telemetry storage is unavailable and its buffer is full; retry later", RetryAfter: time.Second, Cause: err}
	}
	out.Buffered = len(keep)
	return out, nil
}

// kept applies the rules of spec §7 that do not depend on rate.
func kept(p *project.Project, e Event) bool {
	if e.Name == modalCreated {
		return false
	}
	return p.Analytics || e.Type == TypeError || mandatoryEvents[e.Name]
}

// allowError asks the error limiter. The key includes the project because
// AppKit counts per page, and one visitor may use several dapps.
func (s *Service) allowError(ctx context.Context, projectID, rateKey string) (bool, error) {
	d, err := s.cfg.ErrorLimiter.Allow(ctx, projectID+"\x00"+rateKey)
	if err != nil {
		// Failing closed costs some error reports; failing open would let a
		// broken limiter flood the table. Telemetry is best effort.
		slog.WarnContext(ctx, "telemetry error limiter failed; dropping error event", "err", err)
		return false, nil
	}
	return d.Allowed, nil
}

const insertEvent = `INSERT INTO events (project_id, event_id, type, event, day, occurred_at, received_at, url, domain, props)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (project_id, event_id) DO NOTHING`

func (s *Service) insert(ctx context.Context, projectID string, now time.Time, events []Event) (int, error) {
	stored := 0
	err := s.db.InTx(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, s.db.Rebind(insertEvent))
		if err != nil {
			return err
		}
		defer stmt.Close()
		for _, e := range events {
			at := e.OccurredAt.UTC()
			res, err := stmt.ExecContext(ctx, projectID, e.ID, e.Type, e.Name, at.Format(dayLayout),
				at.UnixMilli(), now.UnixMilli(), e.URL, e.Domain, string(e.Props))
			if err != nil {
				return err
			}
			// A conflict (a retried eventId) affects no row in both dialects.
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			stored += int(n)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return stored, nil
}

// Prune deletes the events that occurred before now minus Config.Retention
// and returns how many; with no retention it deletes nothing. It deletes in
// batches of pruneBatch rows, each its own statement.
func (s *Service) Prune(ctx context.Context) (int64, error) {
	if s.cfg.Retention <= 0 {
		return 0, nil
	}
	cutoff := s.cfg.Now().Add(-s.cfg.Retention).UnixMilli()
	var total int64
	for {
		res, err := s.db.Exec(ctx, `DELETE FROM events WHERE (project_id, event_id) IN
(SELECT project_id, event_id FROM events WHERE occurred_at < ? LIMIT ?)`, cutoff, pruneBatch)
		if err != nil {
			return total, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return total, err
		}
		total += n
		if n < pruneBatch {
			return total, nil
		}
	}
}

// RunRetention prunes expired events once, then on every tick, until ctx
// ends or ticks is closed (latchd ticks every RetentionInterval). A failed
// round is logged and retried on the next tick. With no retention it
// returns at once.
func (s *Service) RunRetention(ctx context.Context, ticks <-chan time.Time) {
	if s.cfg.Retention <= 0 {
		return
	}
	for {
		if n, err := s.Prune(ctx); err != nil {
			if ctx.Err() != nil {
				return
			}
			slog.WarnContext(ctx, "telemetry retention: delete failed", "err", err)
		} else if n > 0 {
			slog.InfoContext(ctx, "telemetry retention: deleted expired events", "events", n)
		}
		select {
		case <-ctx.Done():
			return
		case _, ok := <-ticks:
			if !ok {
				return
			}
		}
	}
}

// dayLayout is the UTC day of an event, the unit of the summary.
const dayLayout = "2006-01-02"

// maxSummaryDays bounds one summary request so it stays a cheap index scan.
const maxSummaryDays = 366

// DefaultSummaryDays is the range of a summary without from/to.
const DefaultSummaryDays = 30

// Summary is the per-day event count of one project.
type Summary struct {
	ProjectID string       `json:"projectId"`
	Days      []DaySummary `json:"days"`
}

// DaySummary counts the events of one UTC day by event name.
type DaySummary struct {
	Day    string         `json:"day"`
	Events map[string]int `json:"events"`
}

// Summary counts the project's stored events per UTC day and event name for
// the days from through to (inclusive, UTC dates), ordered by day. Days
// without events are left out.
//
// Errors: Invalid when to is before from or the range exceeds 366 days; any
// other error is internal.
func (s *Service) Summary(ctx context.Context, projectID string, from, to time.Time) (Summary, error) {
	fromDay, toDay := from.UTC().Format(dayLayout), to.UTC().Format(dayLayout)
	if toDay < fromDay {
		return Summary{}, apperr.Fieldf(apperr.Invalid, "to", "to must not be before from")
	}
	if days(from, to) > maxSummaryDays {
		return Summary{}, apperr.Fieldf(apperr.Invalid, "from", "A summary covers at most %d days", maxSummaryDays)
	}
	rows, err := s.db.Query(ctx, `SELECT day, event, COUNT(*) FROM events
WHERE project_id = ? AND day >= ? AND day <= ?
GROUP BY day, event ORDER BY day, event`, projectID, fromDay, toDay)
	if err != nil {
		return Summary{}, err
	}
	defer rows.Close()
	sum := Summary{ProjectID: projectID, Days: []DaySummary{}}
	for rows.Next() {
		var day, event string
		var n int
		if err := rows.Scan(&day, &event, &n); err != nil {
			return Summary{}, err
		}
		if len(sum.Days) == 0 || sum.Days[len(sum.Days)-1].Day != day {
			sum.Days = append(sum.Days, DaySummary{Day: day, Events: map[string]int{}})
		}
		sum.Days[len(sum.Days)-1].Events[event] = n
	}
	return sum, rows.Err()
}

// days is the number of UTC days from through to, inclusive.
func days(from, to time.Time) int {
	f := truncDay(from)
	t := truncDay(to)
	return int(t.Sub(f)/(24*time.Hour)) + 1
}

func truncDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
