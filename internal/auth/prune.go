package auth

import (
	"context"
	"time"
)

// PruneInterval is how often latchd deletes what e-mail login no longer needs.
const PruneInterval = time.Hour

// pruneGrace keeps ended challenges and sessions a day past their end, for
// the status poll and the session list to answer "expired" rather than
// nothing, and for an operator to look at.
const pruneGrace = 24 * time.Hour

// Prune deletes expired refresh tokens (a spent one is kept until it would
// have expired, so that its reuse is still caught), sessions whose refresh
// tokens are all gone or that were revoked over a day ago, and codes,
// links, pending second-factor logins and WebAuthn challenges that ended
// over a day ago. It returns how many rows it deleted.
func (s *Service) Prune(ctx context.Context) (int64, error) {
	now := s.now()
	cut := ms(now.Add(-pruneGrace))
	var total int64
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`DELETE FROM auth_refresh_tokens WHERE expires_at <= ?`, []any{ms(now)}},
		{`DELETE FROM auth_sessions WHERE (revoked_at IS NOT NULL AND revoked_at <= ?)
			OR (created_at <= ? AND NOT EXISTS (SELECT 1 FROM auth_refresh_tokens r WHERE r.session_id = auth_sessions.id))`, []any{cut, cut}},
		{`DELETE FROM auth_challenges WHERE expires_at <= ? OR consumed_at <= ?`, []any{cut, cut}},
		{`DELETE FROM auth_factor_tickets WHERE expires_at <= ? OR consumed_at <= ?`, []any{cut, cut}},
		{`DELETE FROM auth_webauthn_challenges WHERE expires_at <= ? OR consumed_at <= ?`, []any{cut, cut}},
	} {
		res, err := s.db.Exec(ctx, q.sql, q.args...)
		if err != nil {
			return total, err
		}
		n, _ := res.RowsAffected()
		total += n
	}
	return total, nil
}

// RunPrune calls Prune on every tick until ctx ends, logging failures.
func (s *Service) RunPrune(ctx context.Context, tick <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
			if n, err := s.Prune(ctx); err != nil && ctx.Err() == nil {
				s.cfg.Logger.WarnContext(ctx, "auth: prune", "err", err)
			} else if n > 0 {
				s.cfg.Logger.InfoContext(ctx, "auth: pruned", "rows", n)
			}
		}
	}
}
