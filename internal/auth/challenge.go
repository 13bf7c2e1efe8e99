package auth

import (
	"context"
	"crypto/hmac"
	"crypto/subtle"
	"database/sql"
	"net/url"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/i18n"
	"github.com/latchkit/latch/internal/mail"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
)

// Kinds of challenge: one live row per project, e-mail, kind and device (a
// login's code or link belongs to the device that asked for it, so another
// device's start for the same address leaves it alone; an e-mail change's
// rows have no device).
const (
	kindCode          = "code"           // login code, bound to a device
	kindDevice        = "device"         // device approval link
	kindChangePrimary = "change-primary" // e-mail change, code to the current address
	kindChangeNew     = "change-new"     // e-mail change, code to the new address
)

// challenge is what a new code or link is bound to.
type challenge struct {
	kind      string
	deviceID  string
	sessionID string
	newEmail  string
}

// cooldown answers a second mail within ResendCooldown of the last one of
// the same row (project, e-mail, kind, device).
func (s *Service) cooldown(ctx context.Context, projectID, email, kind, deviceID string) error {
	var created int64
	err := s.db.QueryRow(ctx, `SELECT created_at FROM auth_challenges WHERE project_id = ? AND email = ? AND kind = ? AND device_id = ?`, projectID, email, kind, deviceID).Scan(&created)
	if store.IsNoRows(err) {
		return nil
	}
	if err != nil {
		return err
	}
	left := time.UnixMilli(created).Add(ResendCooldown).Sub(s.now())
	if left <= 0 {
		return nil
	}
	secs := int((left + time.Second - 1) / time.Second)
	return &RetryError{Err: apperr.Fieldf(apperr.RateLimited, "email", MsgCooldown, secs), RetryAfter: left}
}

// issue replaces the challenge of (project, email, kind, device) with a new one and
// mails it to `to`. It returns the challenge id. Within ResendCooldown of the
// previous challenge nothing changes and the cooldown error is returned (the
// replacement is one conditional upsert, so two concurrent starts send one
// mail). If the mail cannot be sent the challenge is withdrawn. The mail is in
// ctx's locale (i18n.NewContext: the request's), and so is the approval page
// its link opens.
func (s *Service) issue(ctx context.Context, p *project.Project, email, to string, c challenge) (string, error) {
	id := newID()
	var secret []byte
	data := mail.Data{Locale: i18n.FromContext(ctx)}
	var mailKind string
	ttl := CodeTTL
	switch c.kind {
	case kindDevice:
		token := newToken()
		secret = hashToken(token)
		ttl = DeviceLinkTTL
		data.Link = s.cfg.LinkBase() + ApprovePath + "?token=" + token + "&locale=" + url.QueryEscape(data.Locale)
		mailKind = mail.KindDevice
	default:
		code := newCode()
		secret = codeMAC(s.cfg.Secret, id, code)
		data.Code = code
		mailKind = mail.KindCode
		if c.kind != kindCode {
			mailKind = mail.KindEmailChange
			data.NewEmail = c.newEmail
		}
	}
	data.Project, data.Minutes = p.Name, int(ttl/time.Minute)
	msg, err := s.cfg.Templates.Render(mailKind, to, data)
	if err != nil {
		return "", err
	}
	now := s.now()
	res, err := s.db.Exec(ctx, `INSERT INTO auth_challenges (project_id, email, kind, id, secret, device_id, session_id, new_email, created_at, expires_at, attempts)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
		ON CONFLICT (project_id, email, kind, device_id) DO UPDATE SET id = excluded.id, secret = excluded.secret, device_id = excluded.device_id,
			session_id = excluded.session_id, new_email = excluded.new_email, created_at = excluded.created_at,
			expires_at = excluded.expires_at, attempts = 0, consumed_at = NULL, approved_at = NULL
		WHERE auth_challenges.created_at <= ?`,
		p.ID, email, c.kind, id, secret, c.deviceID, c.sessionID, c.newEmail, ms(now), ms(now.Add(ttl)), ms(now.Add(-ResendCooldown)))
	if err != nil {
		return "", err
	}
	if n, err := res.RowsAffected(); err != nil {
		return "", err
	} else if n == 0 {
		if err := s.cooldown(ctx, p.ID, email, c.kind, c.deviceID); err != nil {
			return "", err
		}
		return "", &RetryError{Err: apperr.Fieldf(apperr.RateLimited, "email", MsgCooldown, 1), RetryAfter: time.Second}
	}
	if err := s.cfg.Mail.Send(ctx, msg); err != nil {
		// Never logs the message: it holds the code or link.
		s.cfg.Logger.ErrorContext(ctx, "auth: mail not sent", "project_id", p.ID, "kind", mailKind, "err", err)
		if _, derr := s.db.Exec(context.WithoutCancel(ctx), `DELETE FROM auth_challenges WHERE id = ?`, id); derr != nil {
			s.cfg.Logger.ErrorContext(ctx, "auth: withdraw challenge", "err", derr)
		}
		return "", apperr.Fieldf(apperr.Unavailable, "email", MsgSendFailed)
	}
	return id, nil
}

// spent is a consumed code's challenge.
type spent struct {
	id, deviceID, sessionID, newEmail string
}

// consumeCode spends the live code of (project, email, kind, device) if otp is it.
// Each call first takes one of the code's MaxAttempts tries in a single
// conditional UPDATE … RETURNING (so concurrent guesses cannot exceed the
// tries), compares in constant time, then marks the code consumed with a
// second conditional UPDATE: of two concurrent verifies of the right code
// exactly one succeeds. bind, when set, must accept the challenge too
// (before it is consumed). Every failure is MsgInvalidCode.
func (s *Service) consumeCode(ctx context.Context, projectID, email, kind, deviceID, otp string, bind func(spent) bool) (spent, error) {
	var c spent
	var secret []byte
	now := s.now()
	err := s.db.QueryRow(ctx, `UPDATE auth_challenges SET attempts = attempts + 1
		WHERE project_id = ? AND email = ? AND kind = ? AND device_id = ? AND consumed_at IS NULL AND attempts < ? AND expires_at > ?
		RETURNING id, secret, device_id, session_id, new_email`,
		projectID, email, kind, deviceID, MaxAttempts, ms(now)).Scan(&c.id, &secret, &c.deviceID, &c.sessionID, &c.newEmail)
	bad := apperr.Fieldf(apperr.Invalid, "otp", MsgInvalidCode)
	if store.IsNoRows(err) {
		return c, bad
	}
	if err != nil {
		return c, err
	}
	if !hmac.Equal(codeMAC(s.cfg.Secret, c.id, otp), secret) || bind != nil && !bind(c) {
		return c, bad
	}
	if s.afterReserve != nil {
		s.afterReserve()
	}
	res, err := s.db.Exec(ctx, `UPDATE auth_challenges SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL`, ms(now), c.id)
	if err != nil {
		return c, err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return c, bad
	}
	return c, nil
}

func equalStrings(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// sqlTx is a database transaction.
type sqlTx = sql.Tx

// querier runs ? statements on the DB or in a transaction.
type querier struct {
	db *store.DB
	tx *sql.Tx
}

func (q querier) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if q.tx != nil {
		return q.tx.ExecContext(ctx, q.db.Rebind(query), args...)
	}
	return q.db.Exec(ctx, query, args...)
}

func (q querier) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	if q.tx != nil {
		return q.tx.QueryRowContext(ctx, q.db.Rebind(query), args...)
	}
	return q.db.QueryRow(ctx, query, args...)
}

// ensureUser returns the id of the user of (project, email), creating it.
func (s *Service) ensureUser(ctx context.Context, q querier, projectID, email string) (string, error) {
	if _, err := q.exec(ctx, `INSERT INTO auth_users (id, project_id, email, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (project_id, email) DO NOTHING`,
		newID(), projectID, email, ms(s.now())); err != nil {
		return "", err
	}
	var id string
	err := q.queryRow(ctx, `SELECT id FROM auth_users WHERE project_id = ? AND email = ?`, projectID, email).Scan(&id)
	return id, err
}
