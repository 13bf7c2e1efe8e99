package auth

import (
	"context"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
)

// Actions of an e-mail change (spec §4).
const (
	ActionVerifyPrimaryOTP   = "VERIFY_PRIMARY_OTP"
	ActionVerifySecondaryOTP = "VERIFY_SECONDARY_OTP"
)

// ChangeEmail starts changing the session user's e-mail to newEmail: a code
// goes to the current address. A user with a second factor needs to have
// proved it within FactorWindow. Errors: invalid (newEmail, the same address),
// forbidden (MsgFactorRequired),
// rate_limited (cooldown, limits), unavailable (mail).
func (s *Service) ChangeEmail(ctx context.Context, p *project.Project, a *Auth, newEmail, ip string) (string, error) {
	email, err := NormalizeEmail("newEmail", newEmail)
	if err != nil {
		return "", err
	}
	if a.Email == "" {
		return "", apperr.Errorf(apperr.Forbidden, "This account has no e-mail address to change: it was opened by a social login")
	}
	if email == a.Email {
		return "", apperr.Fieldf(apperr.Invalid, "newEmail", "The new email address is the same as the current one")
	}
	if err := s.requireFactor(ctx, a); err != nil {
		return "", err
	}
	if err := s.cooldown(ctx, p.ID, a.Email, kindChangePrimary, ""); err != nil {
		return "", err
	}
	if err := s.allow(ctx,
		limitCheck{s.cfg.IPStartLimiter, ip, "e-mail logins per IP"},
		limitCheck{s.cfg.EmailLimiter, p.ID + "/" + a.Email, "e-mails to this address"},
		limitCheck{s.cfg.ProjectLimiter, p.ID, "e-mails for this project"},
	); err != nil {
		return "", err
	}
	if _, err := s.issue(ctx, p, a.Email, a.Email, challenge{kind: kindChangePrimary, sessionID: a.SessionID, newEmail: email}); err != nil {
		return "", err
	}
	return ActionVerifyPrimaryOTP, nil
}

// ChangeEmailPrimary checks the code sent to the current address and sends
// one to the new address. Errors: invalid (MsgInvalidCode), rate_limited,
// unavailable.
func (s *Service) ChangeEmailPrimary(ctx context.Context, p *project.Project, a *Auth, otp, ip string) (string, error) {
	if err := validOTP(otp); err != nil {
		return "", err
	}
	if err := s.allow(ctx, limitCheck{s.cfg.IPVerifyLimiter, ip, "code checks per IP"}); err != nil {
		return "", err
	}
	c, err := s.consumeCode(ctx, p.ID, a.Email, kindChangePrimary, "", otp, func(c spent) bool { return c.sessionID == a.SessionID })
	if err != nil {
		return "", err
	}
	if err := s.allow(ctx, limitCheck{s.cfg.EmailLimiter, p.ID + "/" + c.newEmail, "e-mails to this address"}); err != nil {
		return "", err
	}
	if _, err := s.issue(ctx, p, a.Email, c.newEmail, challenge{kind: kindChangeNew, sessionID: a.SessionID, newEmail: c.newEmail}); err != nil {
		return "", err
	}
	return ActionVerifySecondaryOTP, nil
}

// ChangeEmailSecondary checks the code sent to the new address, changes the
// user's e-mail, revokes every session of the user and opens a new one for
// deviceID (the caller's device). Errors: invalid (MsgInvalidCode),
// forbidden (another device), conflict (the address is taken meanwhile).
func (s *Service) ChangeEmailSecondary(ctx context.Context, p *project.Project, a *Auth, otp, deviceID, ip, userAgent string) (string, *Session, error) {
	if err := boundTo(a, deviceID); err != nil {
		return "", nil, err
	}
	if err := validOTP(otp); err != nil {
		return "", nil, err
	}
	if err := s.allow(ctx, limitCheck{s.cfg.IPVerifyLimiter, ip, "code checks per IP"}); err != nil {
		return "", nil, err
	}
	c, err := s.consumeCode(ctx, p.ID, a.Email, kindChangeNew, "", otp, func(c spent) bool { return c.sessionID == a.SessionID })
	if err != nil {
		return "", nil, err
	}
	var sess *Session
	err = s.db.InTx(ctx, func(tx *sqlTx) error {
		q := querier{db: s.db, tx: tx}
		if _, err := q.exec(ctx, `UPDATE auth_users SET email = ? WHERE id = ?`, c.newEmail, a.UserID); err != nil {
			if store.IsUniqueViolation(err) {
				return apperr.Fieldf(apperr.Conflict, "newEmail", "This email address is already in use")
			}
			return err
		}
		now := s.now()
		if _, err := q.exec(ctx, `UPDATE auth_sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL`, ms(now), a.UserID); err != nil {
			return err
		}
		var err error
		sess, err = s.createSession(ctx, q, newSession{userID: a.UserID, email: c.newEmail, projectID: p.ID, deviceID: deviceID, userAgent: userAgent, verifiedAt: now, codeAt: now, factorAt: a.FactorAt, passkeyAt: a.PasskeyAt})
		return err
	})
	if err != nil {
		return "", nil, err
	}
	return c.newEmail, sess, nil
}
