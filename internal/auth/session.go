package auth

import (
	"context"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/store"
)

// User is the account a session belongs to.
type User struct {
	ID    string `json:"id"`
	Email string `json:"email"`
}

// Session is what a verify or a refresh hands the frame. The tokens are
// shown only here: latchd keeps their SHA-256.
//
// A login into an account with a second factor, from a device that has not
// passed it (or any social login into such an account), gets no session:
// Pending is set, every other field is empty, and the JSON is only
// {"secondFactorRequired": Pending} (mfa.go).
type Session struct {
	SessionID             string    `json:"sessionId"`
	AccessToken           string    `json:"accessToken"`
	AccessTokenExpiresAt  time.Time `json:"accessTokenExpiresAt"`
	RefreshToken          string    `json:"refreshToken"`
	RefreshTokenExpiresAt time.Time `json:"refreshTokenExpiresAt"`
	User                  User      `json:"user"`
	Pending               *Pending  `json:"-"`
}

// Auth is an authenticated request's session.
type Auth struct {
	SessionID  string
	UserID     string
	Email      string
	ProjectID  string
	DeviceID   string
	VerifiedAt time.Time
	// FactorAt is when the session last proved a second factor (a TOTP code
	// or a passkey assertion), PasskeyAt when it last made a passkey
	// assertion, CodeAt when an e-mail code opened it; zero: never.
	FactorAt, PasskeyAt, CodeAt time.Time
}

// Fresh reports whether the session's code was verified within FreshWindow.
func (a *Auth) Fresh(now time.Time) bool { return now.Sub(a.VerifiedAt) <= FreshWindow }

// FactorFresh reports whether the session proved a second factor within
// FactorWindow.
func (a *Auth) FactorFresh(now time.Time) bool { return within(a.FactorAt, now, FactorWindow) }

// PasskeyFresh reports whether the session made a passkey assertion within
// FactorWindow.
func (a *Auth) PasskeyFresh(now time.Time) bool { return within(a.PasskeyAt, now, FactorWindow) }

// CodeFresh reports whether an e-mail code opened the session within
// FactorWindow.
func (a *Auth) CodeFresh(now time.Time) bool { return within(a.CodeAt, now, FactorWindow) }

func within(t, now time.Time, d time.Duration) bool {
	return !t.IsZero() && !t.After(now.Add(time.Second)) && now.Sub(t) <= d
}

type newSession struct {
	userID, email, projectID, deviceID, userAgent string
	verifiedAt                                    time.Time
	// factorAt, passkeyAt, codeAt: see Auth; zero for none.
	factorAt, passkeyAt, codeAt time.Time
}

// nullMS is t in Unix milliseconds, or NULL for the zero time.
func nullMS(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return ms(t)
}

func fromNullMS(v *int64) time.Time {
	if v == nil {
		return time.Time{}
	}
	return time.UnixMilli(*v)
}

func (s *Service) createSession(ctx context.Context, q querier, n newSession) (*Session, error) {
	now := s.now()
	sess := &Session{
		SessionID: newID(), AccessToken: newToken(), AccessTokenExpiresAt: now.Add(AccessTTL).UTC(),
		RefreshToken: newToken(), RefreshTokenExpiresAt: now.Add(RefreshTTL).UTC(), User: User{ID: n.userID, Email: n.email},
	}
	if len(n.userAgent) > 256 {
		n.userAgent = n.userAgent[:256]
	}
	if _, err := q.exec(ctx, `INSERT INTO auth_sessions (id, user_id, project_id, device_id, user_agent, created_at, verified_at, last_used_at, access_hash, access_expires_at, factor_at, passkey_at, code_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, sess.SessionID, n.userID, n.projectID, n.deviceID, n.userAgent, ms(now), ms(n.verifiedAt), ms(now),
		hashToken(sess.AccessToken), ms(sess.AccessTokenExpiresAt), nullMS(n.factorAt), nullMS(n.passkeyAt), nullMS(n.codeAt)); err != nil {
		return nil, err
	}
	if _, err := q.exec(ctx, `INSERT INTO auth_refresh_tokens (hash, session_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
		hashToken(sess.RefreshToken), sess.SessionID, ms(now), ms(sess.RefreshTokenExpiresAt)); err != nil {
		return nil, err
	}
	return sess, nil
}

func errSessionExpired() error {
	return apperr.Fieldf(apperr.Unauthorized, "Authorization", MsgSessionExpired)
}

// Authenticate finds the live session of an access token in the project.
// Error: unauthorized (MsgSessionExpired) for an unknown, expired or revoked
// token.
func (s *Service) Authenticate(ctx context.Context, projectID, accessToken string) (*Auth, error) {
	if accessToken == "" {
		return nil, errSessionExpired()
	}
	a := &Auth{ProjectID: projectID}
	var verified int64
	var factor, passkey, code *int64
	err := s.db.QueryRow(ctx, `SELECT s.id, s.user_id, u.email, s.device_id, s.verified_at, s.factor_at, s.passkey_at, s.code_at FROM auth_sessions s JOIN auth_users u ON u.id = s.user_id
		WHERE s.access_hash = ? AND s.project_id = ? AND s.revoked_at IS NULL AND s.access_expires_at > ?`,
		hashToken(accessToken), projectID, ms(s.now())).Scan(&a.SessionID, &a.UserID, &a.Email, &a.DeviceID, &verified, &factor, &passkey, &code)
	if store.IsNoRows(err) {
		return nil, errSessionExpired()
	}
	if err != nil {
		return nil, err
	}
	a.VerifiedAt = time.UnixMilli(verified)
	a.FactorAt, a.PasskeyAt, a.CodeAt = fromNullMS(factor), fromNullMS(passkey), fromNullMS(code)
	a.Email = publicEmail(a.Email)
	return a, nil
}

// Refresh spends a refresh token for a new access and refresh token. A
// refresh token works once: presenting a spent one again (a copy in other
// hands, or the owner's after a thief used it) revokes the whole session.
// Error: unauthorized (MsgSessionExpired).
func (s *Service) Refresh(ctx context.Context, projectID, refreshToken, deviceID string) (*Session, error) {
	if err := validDeviceID(deviceID); err != nil {
		return nil, err
	}
	h := hashToken(refreshToken)
	now := s.now()
	var sessionID, sessProject, sessDevice, userID, email string
	var used, revoked *int64
	var expires, verified int64
	err := s.db.QueryRow(ctx, `SELECT r.session_id, r.used_at, r.expires_at, s.project_id, s.device_id, s.revoked_at, s.user_id, s.verified_at, u.email
		FROM auth_refresh_tokens r JOIN auth_sessions s ON s.id = r.session_id JOIN auth_users u ON u.id = s.user_id WHERE r.hash = ?`, h).
		Scan(&sessionID, &used, &expires, &sessProject, &sessDevice, &revoked, &userID, &verified, &email)
	if store.IsNoRows(err) {
		return nil, errSessionExpired()
	}
	if err != nil {
		return nil, err
	}
	if sessProject != projectID || !equalStrings(sessDevice, deviceID) || revoked != nil || expires <= ms(now) {
		return nil, errSessionExpired()
	}
	if used != nil {
		return nil, s.revokeFamily(ctx, sessionID)
	}
	email = publicEmail(email)
	var sess *Session
	err = s.db.InTx(ctx, func(tx *sqlTx) error {
		q := querier{db: s.db, tx: tx}
		res, err := q.exec(ctx, `UPDATE auth_refresh_tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL`, ms(now), h)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return errReuse
		}
		sess = &Session{
			SessionID: sessionID, AccessToken: newToken(), AccessTokenExpiresAt: now.Add(AccessTTL).UTC(),
			RefreshToken: newToken(), RefreshTokenExpiresAt: now.Add(RefreshTTL).UTC(), User: User{ID: userID, Email: email},
		}
		if _, err := q.exec(ctx, `UPDATE auth_sessions SET access_hash = ?, access_expires_at = ?, last_used_at = ? WHERE id = ?`,
			hashToken(sess.AccessToken), ms(sess.AccessTokenExpiresAt), ms(now), sessionID); err != nil {
			return err
		}
		_, err = q.exec(ctx, `INSERT INTO auth_refresh_tokens (hash, session_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
			hashToken(sess.RefreshToken), sessionID, ms(now), ms(sess.RefreshTokenExpiresAt))
		return err
	})
	if err == errReuse {
		// Spent by a concurrent refresh between the read and the update.
		return nil, s.revokeFamily(ctx, sessionID)
	}
	return sess, err
}

var errReuse = apperr.Fieldf(apperr.Unauthorized, "refreshToken", MsgSessionExpired)

// revokeFamily ends a session whose spent refresh token came back, and
// returns the error the caller answers.
func (s *Service) revokeFamily(ctx context.Context, sessionID string) error {
	s.cfg.Logger.WarnContext(ctx, "auth: a spent refresh token was presented again; session revoked", "session_id", sessionID)
	if _, err := s.db.Exec(ctx, `UPDATE auth_sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`, ms(s.now()), sessionID); err != nil {
		return err
	}
	return errSessionExpired()
}

// SessionInfo describes a live session in List.
type SessionInfo struct {
	ID         string    `json:"id"`
	DeviceID   string    `json:"deviceId"`
	UserAgent  string    `json:"userAgent"`
	CreatedAt  time.Time `json:"createdAt"`
	LastUsedAt time.Time `json:"lastUsedAt"`
	Current    bool      `json:"current"`
}

// ListSessions returns the user's live sessions, newest first. A session is
// live until revoked or until its refresh tokens have expired.
func (s *Service) ListSessions(ctx context.Context, a *Auth) ([]SessionInfo, error) {
	rows, err := s.db.Query(ctx, `SELECT s.id, s.device_id, s.user_agent, s.created_at, s.last_used_at FROM auth_sessions s
		WHERE s.user_id = ? AND s.revoked_at IS NULL
		AND EXISTS (SELECT 1 FROM auth_refresh_tokens r WHERE r.session_id = s.id AND r.used_at IS NULL AND r.expires_at > ?)
		ORDER BY s.created_at DESC, s.id`, a.UserID, ms(s.now()))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []SessionInfo{}
	for rows.Next() {
		var si SessionInfo
		var created, last int64
		if err := rows.Scan(&si.ID, &si.DeviceID, &si.UserAgent, &created, &last); err != nil {
			return nil, err
		}
		si.CreatedAt, si.LastUsedAt, si.Current = time.UnixMilli(created).UTC(), time.UnixMilli(last).UTC(), si.ID == a.SessionID
		out = append(out, si)
	}
	return out, rows.Err()
}

// RevokeSession ends one of the user's sessions ("current": the caller's).
// Error: not_found for an id that is not a live session of the user.
func (s *Service) RevokeSession(ctx context.Context, a *Auth, id string) error {
	if id == "current" {
		id = a.SessionID
	}
	res, err := s.db.Exec(ctx, `UPDATE auth_sessions SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL`, ms(s.now()), id, a.UserID)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return apperr.Fieldf(apperr.NotFound, "id", "No such session")
	}
	return nil
}
