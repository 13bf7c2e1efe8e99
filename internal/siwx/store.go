package siwx

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/latchkit/latch/internal/store"
)

// Session is a stored sign-in.
type Session struct {
	ID        string
	ProjectID string
	ChainID   string // CAIP-2
	Address   string
	Domain    string
	URI       string
	Nonce     string
	Message   string
	Signature string
	Kind      string
	CACAO     string // CAIP-74 JSON
	CreatedAt time.Time
	ExpiresAt time.Time
	RevokedAt *time.Time
}

// Active reports whether s can still be used at now.
func (s *Session) Active(now time.Time) bool {
	return s.RevokedAt == nil && now.Before(s.ExpiresAt)
}

// Store keeps sessions in latchd's database (SQLite or Postgres).
type Store struct {
	db *store.DB
}

// NewStore returns the session store of db.
func NewStore(db *store.DB) *Store { return &Store{db: db} }

// errNoSession is Store's answer for an unknown session.
var errNoSession = errors.New("siwx: no such session")

const sessionColumns = `id, project_id, chain_id, address, domain, uri, nonce, message, signature, kind, cacao, created_at, expires_at, revoked_at`

// Create stores s under the SHA-256 of its bearer token.
func (st *Store) Create(ctx context.Context, s *Session, tokenHash string) error {
	_, err := st.db.Exec(ctx, `INSERT INTO siwx_sessions (id, project_id, token_hash, chain_id, address, domain, uri, nonce, message, signature, kind, cacao, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.ID, s.ProjectID, tokenHash, s.ChainID, s.Address, s.Domain, s.URI, s.Nonce, s.Message, s.Signature, s.Kind, s.CACAO,
		s.CreatedAt.UnixMilli(), s.ExpiresAt.UnixMilli())
	return err
}

// ByToken returns the session of a token hash in a project.
func (st *Store) ByToken(ctx context.Context, projectID, tokenHash string) (*Session, error) {
	return scanSession(st.db.QueryRow(ctx, `SELECT `+sessionColumns+` FROM siwx_sessions WHERE project_id = ? AND token_hash = ?`, projectID, tokenHash))
}

// Get returns a session of a project by id.
func (st *Store) Get(ctx context.Context, projectID, id string) (*Session, error) {
	return scanSession(st.db.QueryRow(ctx, `SELECT `+sessionColumns+` FROM siwx_sessions WHERE project_id = ? AND id = ?`, projectID, id))
}

// List returns the sessions of one account in a project, newest first,
// the revoked and expired ones included.
func (st *Store) List(ctx context.Context, projectID, chainID, address string) ([]*Session, error) {
	rows, err := st.db.Query(ctx, `SELECT `+sessionColumns+` FROM siwx_sessions WHERE project_id = ? AND chain_id = ? AND address = ? ORDER BY created_at DESC, id LIMIT 100`, projectID, chainID, address)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Session
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Revoke marks a session revoked at now; revoking it again keeps the first time.
func (st *Store) Revoke(ctx context.Context, projectID, id string, now time.Time) error {
	res, err := st.db.Exec(ctx, `UPDATE siwx_sessions SET revoked_at = COALESCE(revoked_at, ?) WHERE project_id = ? AND id = ?`, now.UnixMilli(), projectID, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errNoSession
	}
	return nil
}

// Prune deletes sessions that expired before cutoff.
func (st *Store) Prune(ctx context.Context, cutoff time.Time) (int64, error) {
	res, err := st.db.Exec(ctx, `DELETE FROM siwx_sessions WHERE expires_at < ?`, cutoff.UnixMilli())
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

type scanner interface{ Scan(...any) error }

func scanSession(row scanner) (*Session, error) {
	var s Session
	var created, expires int64
	var revoked sql.NullInt64
	err := row.Scan(&s.ID, &s.ProjectID, &s.ChainID, &s.Address, &s.Domain, &s.URI, &s.Nonce, &s.Message, &s.Signature, &s.Kind, &s.CACAO, &created, &expires, &revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoSession
	}
	if err != nil {
		return nil, err
	}
	s.CreatedAt, s.ExpiresAt = time.UnixMilli(created), time.UnixMilli(expires)
	if revoked.Valid {
		t := time.UnixMilli(revoked.Int64)
		s.RevokedAt = &t
	}
	return &s, nil
}
