package project

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/store"
)

const (
	// cacheTTL bounds how long a project change made on another latchd node
	// (or by `latchd project update` against the same database) takes to be
	// seen here.
	cacheTTL = 10 * time.Second
	// negativeTTL is how long an id is remembered as unknown: a project
	// created on another node is usable here after at most this long.
	negativeTTL = 5 * time.Second
	// maxCachedProjects bounds the cache of existing projects, which only
	// the operator can grow; maxUnknownIDs bounds that of unknown ids, which
	// anyone can. The two are apart so that a flood of unknown ids never
	// evicts the projects in use: each costs a query, as it would anyway.
	maxCachedProjects = 10_000
	maxUnknownIDs     = 10_000
	// DefaultMaxStale is how long after its entry expired a project is still
	// served, from its last known settings, while the database is away: long
	// enough to ride out an outage, short enough that a project removed or
	// restricted meanwhile is not honoured for ever.
	DefaultMaxStale = 30 * time.Minute
	// staleRefreshBudget bounds the query refreshing an expired entry that
	// could still be served: a healthy database answers in milliseconds, and
	// a request should not wait the whole statement timeout on one that
	// does not when the answer it needs is at hand.
	staleRefreshBudget = 500 * time.Millisecond
)

// Service stores projects and answers the per-request project lookup from a
// short-lived cache, so the check on every API call costs no query. While
// the database is away, a project whose entry expired is served from its
// last known settings for up to MaxStale.
type Service struct {
	db  *store.DB
	now func() time.Time

	// MaxStale is how long after its entry expired a project may still be
	// served while the database is away (0: DefaultMaxStale). Set before use.
	MaxStale time.Duration
	// OnStale, when set, is called for every lookup answered from an
	// expired entry (a metric). Set before use.
	OnStale func()

	mu      sync.RWMutex
	known   map[string]cached // existing projects
	unknown map[string]cached // ids with no project (p nil)
}

type cached struct {
	p       *Project // nil: known not to exist
	expires time.Time
}

// NewService returns a project service on db.
func NewService(db *store.DB) *Service {
	return &Service{db: db, now: time.Now, known: map[string]cached{}, unknown: map[string]cached{}}
}

// Create stores a new project. It fills ID (when empty) and the timestamps.
// Errors: invalid (name, origins, id), conflict (the id exists).
func (s *Service) Create(ctx context.Context, p *Project) error {
	if p.ID == "" {
		p.ID = NewID()
	}
	if err := p.Validate(); err != nil {
		return err
	}
	now := s.now().UTC().Truncate(time.Second)
	p.CreatedAt, p.UpdatedAt = now, now
	origins, returns, features, err := encode(p)
	if err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, `INSERT INTO projects (id, name, origins, return_urls, features, analytics, dev, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		p.ID, p.Name, origins, returns, features, p.Analytics, p.Dev, now.Unix(), now.Unix())
	if store.IsUniqueViolation(err) {
		return apperr.Fieldf(apperr.Conflict, "projectId", "A project with id %s already exists", p.ID)
	}
	if err != nil {
		return err
	}
	s.forget(p.ID)
	return nil
}

// Update stores changed fields of an existing project (all but ID, Dev and CreatedAt).
// Errors: invalid, not_found.
func (s *Service) Update(ctx context.Context, p *Project) error {
	if err := p.Validate(); err != nil {
		return err
	}
	p.UpdatedAt = s.now().UTC().Truncate(time.Second)
	origins, returns, features, err := encode(p)
	if err != nil {
		return err
	}
	res, err := s.db.Exec(ctx, `UPDATE projects SET name = ?, origins = ?, return_urls = ?, features = ?, analytics = ?, updated_at = ? WHERE id = ?`,
		p.Name, origins, returns, features, p.Analytics, p.UpdatedAt.Unix(), p.ID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.Fieldf(apperr.NotFound, "projectId", "No project with id %s", p.ID)
	}
	s.forget(p.ID)
	return nil
}

// Get returns a project from the database. Errors: invalid (malformed id), not_found.
func (s *Service) Get(ctx context.Context, id string) (*Project, error) {
	if !ValidID(id) {
		return nil, apperr.Fieldf(apperr.Invalid, "projectId", "A project id is 32 hexadecimal characters")
	}
	p, err := s.queryOne(ctx, ` WHERE id = ?`, id)
	if err == nil && p == nil {
		err = apperr.Fieldf(apperr.NotFound, "projectId", "No project with id %s", id)
	}
	return p, err
}

// List returns every project, oldest first.
func (s *Service) List(ctx context.Context) ([]*Project, error) {
	rows, err := s.db.Query(ctx, selectProjects+` ORDER BY created_at, id`)
	if err != nil {
		return nil, err
	}
	return scanProjects(rows)
}

// FindDev returns the project latchd dev created, or not_found.
func (s *Service) FindDev(ctx context.Context) (*Project, error) {
	p, err := s.queryOne(ctx, ` WHERE dev = ? ORDER BY created_at LIMIT 1`, true)
	if err == nil && p == nil {
		err = apperr.Errorf(apperr.NotFound, "No dev project")
	}
	return p, err
}

// queryOne returns the first project matching the clause, or nil.
func (s *Service) queryOne(ctx context.Context, clause string, args ...any) (*Project, error) {
	rows, err := s.db.Query(ctx, selectProjects+clause, args...)
	if err != nil {
		return nil, err
	}
	list, err := scanProjects(rows)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	return list[0], nil
}

// Lookup returns the project for an API call's projectId, from the cache when
// fresh. The returned project must not be modified.
// Errors (spec §8): unauthorized when the id is missing ("Project ID Not
// Configured") or malformed, forbidden when no such project exists.
func (s *Service) Lookup(ctx context.Context, id string) (*Project, error) {
	if id == "" {
		return nil, apperr.Fieldf(apperr.Unauthorized, "projectId", "Project ID Not Configured: the projectId query parameter is required")
	}
	if !ValidID(id) {
		return nil, apperr.Fieldf(apperr.Unauthorized, "projectId", "Invalid project id: a project id is 32 hexadecimal characters")
	}
	now := s.now()
	s.mu.RLock()
	c, ok := s.known[id]
	if !ok {
		c, ok = s.unknown[id]
	}
	s.mu.RUnlock()
	if !ok || now.After(c.expires) {
		p, err := s.refresh(ctx, id, ok && c.p != nil && !now.After(c.expires.Add(s.maxStale())))
		if err != nil && apperr.Code(err) != apperr.NotFound {
			if apperr.Code(err) == apperr.Unavailable && ok && c.p != nil && !now.After(c.expires.Add(s.maxStale())) {
				// The last known good project: the RPC proxy, the relay and
				// the config API keep working through the outage.
				if s.OnStale != nil {
					s.OnStale()
				}
				return c.p, nil
			}
			return nil, err
		}
		if p != nil {
			// Requests see only origins that pass today's rules.
			p.Origins = ValidOrigins(p.Origins)
		}
		s.mu.Lock()
		if p != nil {
			c = cached{p: p, expires: now.Add(cacheTTL)}
			delete(s.unknown, id)
			put(s.known, id, c, maxCachedProjects, now)
		} else {
			c = cached{expires: now.Add(negativeTTL)}
			delete(s.known, id)
			put(s.unknown, id, c, maxUnknownIDs, now)
		}
		s.mu.Unlock()
	}
	if c.p == nil {
		return nil, apperr.Fieldf(apperr.Forbidden, "projectId", "Invalid project id: no project %s is configured on this server", id)
	}
	return c.p, nil
}

// refresh reads a project for the cache; when a stale copy could be served
// instead (canStale), it waits at most staleRefreshBudget and calls a
// database that does not answer by then unavailable.
func (s *Service) refresh(ctx context.Context, id string, canStale bool) (*Project, error) {
	if !canStale {
		return s.Get(ctx, id)
	}
	rctx, cancel := context.WithTimeout(ctx, staleRefreshBudget)
	defer cancel()
	p, err := s.Get(rctx, id)
	if err != nil && apperr.As(err) == nil && rctx.Err() != nil && ctx.Err() == nil {
		err = &apperr.Error{Code: apperr.Unavailable, Message: "The database did not answer in time", Cause: err}
	}
	return p, err
}

func (s *Service) maxStale() time.Duration {
	if s.MaxStale > 0 {
		return s.MaxStale
	}
	return DefaultMaxStale
}

// SetClock replaces the service's clock, before its first use (tests of
// expiry, whose entries must expire without waiting).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

func (s *Service) forget(id string) {
	s.mu.Lock()
	delete(s.known, id)
	delete(s.unknown, id)
	s.mu.Unlock()
}

// put stores c under id in a cache of at most max entries: when it is full,
// expired entries go first, and if none has expired the whole cache is
// dropped (one query per id to refill it), so memory stays bounded whatever
// ids are sent.
func put(cache map[string]cached, id string, c cached, max int, now time.Time) {
	if _, ok := cache[id]; !ok && len(cache) >= max {
		for k, e := range cache {
			if now.After(e.expires) {
				delete(cache, k)
			}
		}
		if len(cache) >= max {
			clear(cache)
		}
	}
	cache[id] = c
}

const selectProjects = `SELECT id, name, origins, return_urls, features, analytics, dev, created_at, updated_at FROM projects`

func scanProjects(rows interface {
	Next() bool
	Scan(...any) error
	Err() error
	Close() error
}) ([]*Project, error) {
	defer rows.Close()
	var out []*Project
	for rows.Next() {
		var p Project
		var origins, returns, features string
		var created, updated int64
		if err := rows.Scan(&p.ID, &p.Name, &origins, &returns, &features, &p.Analytics, &p.Dev, &created, &updated); err != nil {
			return nil, err
		}
		p.Features = DefaultFeatures()
		if err := json.Unmarshal([]byte(origins), &p.Origins); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(returns), &p.ReturnURLs); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(features), &p.Features); err != nil {
			return nil, err
		}
		p.CreatedAt, p.UpdatedAt = time.Unix(created, 0).UTC(), time.Unix(updated, 0).UTC()
		out = append(out, &p)
	}
	return out, rows.Err()
}

func encode(p *Project) (origins, returns, features string, err error) {
	if p.Origins == nil {
		p.Origins = []string{}
	}
	if p.ReturnURLs == nil {
		p.ReturnURLs = []string{}
	}
	o, err := json.Marshal(p.Origins)
	if err != nil {
		return "", "", "", err
	}
	r, err := json.Marshal(p.ReturnURLs)
	if err != nil {
		return "", "", "", err
	}
	f, err := json.Marshal(p.Features)
	if err != nil {
		return "", "", "", err
	}
	return string(o), string(r), string(f), nil
}

// CheckStored checks every stored project's origins and return URLs
// against today's grammar (NormalizeOrigin): a row written before it was
// strict may hold a path, a quote, a semicolon or a wildcard over a public
// suffix, which would reach the frame's Content-Security-Policy. latchd
// refuses to start on such a row rather than serve a project half-checked;
// the error names each project and value, and the command that fixes it
// (the CLI works on the database while latchd is stopped).
func (s *Service) CheckStored(ctx context.Context) error {
	list, err := s.List(ctx)
	if err != nil {
		return err
	}
	var bad []string
	for _, p := range list {
		for _, o := range p.Origins {
			if n, err := NormalizeOrigin(o); err != nil || n != o {
				bad = append(bad, fmt.Sprintf("project %q (%s): origin %q is not allowed (%s); remove it: latchd project update --id %s --remove-origin %s",
					p.Name, p.ID, o, reason(err, n), p.ID, shellQuote(o)))
			}
		}
		for _, u := range p.ReturnURLs {
			if n, err := p.normalizeReturnURL(u); err != nil || n != u {
				bad = append(bad, fmt.Sprintf("project %q (%s): return URL %q is not allowed (%s); replace the list: latchd project update --id %s --return-url URL…",
					p.Name, p.ID, u, reason(err, n), p.ID))
			}
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("stored projects fail the origin rules (scheme, host and port only; a wildcard only as the whole first label, never over a public suffix):\n  %s", strings.Join(bad, "\n  "))
	}
	return nil
}

// reason is why a stored value failed: the check's message, or the
// canonical form it should have been stored as.
func reason(err error, canonical string) string {
	if e := apperr.As(err); e != nil {
		return e.Message
	}
	return "not in canonical form " + canonical
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
