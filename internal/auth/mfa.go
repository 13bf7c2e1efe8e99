package auth

import (
	"context"
	"encoding/json"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
)

// The rules of the second factor (issue 40).
const (
	// FactorWindow is how long a proved second factor (or, for an account
	// without one, an e-mail code) counts as fresh for key export, e-mail
	// change, recovery and changes to the factors themselves.
	FactorWindow = 5 * time.Minute
	// TicketTTL is how long a login that waits for the second factor waits.
	TicketTTL = 5 * time.Minute
	// TicketMaxAttempts: a pending login's 6th code fails even when right.
	TicketMaxAttempts = 5
	// FactorUserLimit tries of a user's second factor per FactorUserWindow,
	// and FactorIPLimit per client IP per IPWindow, right or wrong.
	FactorUserLimit  = 5
	FactorUserWindow = 15 * time.Minute
	FactorIPLimit    = 30
	// ExportLimit authorised key exports per user per ExportWindow (each
	// mails a notice).
	ExportLimit  = 5
	ExportWindow = time.Hour
)

// User-facing messages of the second factor.
const (
	MsgFactorRequired = "A second factor is required"
	// MsgFactorLocked answers tries over the limits; %d is whole minutes.
	MsgFactorLocked  = "Too many second-factor attempts: try again in %d minutes"
	MsgInvalidFactor = "Invalid authenticator code"
	MsgCodeReplayed  = "This code was already used; wait for the next one"
	MsgTicketExpired = "This login has expired; start again"
	MsgNoTOTP        = "No authenticator app is enrolled"
	MsgTOTPEnrolled  = "An authenticator app is already enrolled; disable it first"
	MsgEnrolExpired  = "The enrolment has expired; start again"
)

// Second-factor methods, as GET /auth/v1/mfa and a pending login name them.
const (
	MethodTOTP    = "totp"
	MethodPasskey = "passkey"
)

// How a pending login began.
const (
	viaEmail  = "email"
	viaSocial = "social"
)

// Pending is a login that waits for the second factor: the frame finishes
// it with POST /auth/v1/mfa/complete (a TOTP code and Ticket) or by logging
// in with a passkey instead. The ticket is shown only here (latchd keeps
// its SHA-256), is bound to the device, and works once within TicketTTL.
type Pending struct {
	Ticket    string    `json:"ticket"`
	Methods   []string  `json:"methods"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// sessionJSON is Session without its MarshalJSON.
type sessionJSON Session

// MarshalJSON writes a pending login as {"secondFactorRequired": …} with
// no session fields, and a session as itself.
func (s Session) MarshalJSON() ([]byte, error) {
	if s.Pending != nil {
		return json.Marshal(map[string]*Pending{"secondFactorRequired": s.Pending})
	}
	return json.Marshal(sessionJSON(s))
}

// Factors are a user's enrolled second factors.
type Factors struct {
	TOTP     bool `json:"totp"`
	Passkeys int  `json:"passkeys"`
}

// Any reports whether the user has a second factor. A passkey counts even
// when it was disabled by a clone warning: losing it must not switch the
// factor off.
func (f Factors) Any() bool { return f.TOTP || f.Passkeys > 0 }

// Methods names the enrolled factors.
func (f Factors) Methods() []string {
	out := []string{}
	if f.TOTP {
		out = append(out, MethodTOTP)
	}
	if f.Passkeys > 0 {
		out = append(out, MethodPasskey)
	}
	return out
}

func (s *Service) factors(ctx context.Context, q querier, userID string) (Factors, error) {
	var f Factors
	var totp int
	err := q.queryRow(ctx, `SELECT (SELECT COUNT(*) FROM auth_totp WHERE user_id = ? AND confirmed_at IS NOT NULL),
		(SELECT COUNT(*) FROM auth_passkeys WHERE user_id = ?)`, userID, userID).Scan(&totp, &f.Passkeys)
	f.TOTP = totp > 0
	return f, err
}

// FactorStatus is GET /auth/v1/mfa: the user's factors and until when the
// session's proof of one is fresh.
type FactorStatus struct {
	Factors
	Methods    []string   `json:"methods"`
	FreshUntil *time.Time `json:"factorFreshUntil,omitempty"`
}

// Status returns the session user's second factors.
func (s *Service) Status(ctx context.Context, a *Auth) (*FactorStatus, error) {
	f, err := s.factors(ctx, querier{db: s.db}, a.UserID)
	if err != nil {
		return nil, err
	}
	st := &FactorStatus{Factors: f, Methods: f.Methods()}
	if a.FactorFresh(s.now()) {
		t := a.FactorAt.Add(FactorWindow).UTC()
		st.FreshUntil = &t
	}
	return st, nil
}

// requireFactor is the gate of what needs the second factor once enrolled
// (e-mail change, recovery, factor changes): a user without one passes, a
// user with one needs a session that proved it within FactorWindow.
// Error: forbidden (MsgFactorRequired).
func (s *Service) requireFactor(ctx context.Context, a *Auth) error {
	f, err := s.factors(ctx, querier{db: s.db}, a.UserID)
	if err != nil {
		return err
	}
	if f.Any() && !a.FactorFresh(s.now()) {
		return apperr.Fieldf(apperr.Forbidden, "secondFactor", MsgFactorRequired)
	}
	return nil
}

// loginOrPend opens the session n, or, when the user has a second factor
// and the login came by a social provider or from a device that has not
// passed the factor, a pending login (a ticket) instead.
func (s *Service) loginOrPend(ctx context.Context, q querier, n newSession, via string) (*Session, error) {
	f, err := s.factors(ctx, q, n.userID)
	if err != nil {
		return nil, err
	}
	if !f.Any() {
		return s.createSession(ctx, q, n)
	}
	if via == viaEmail {
		var passed *int64
		err := q.queryRow(ctx, `SELECT factor_at FROM auth_devices WHERE user_id = ? AND device_id = ?`, n.userID, n.deviceID).Scan(&passed)
		if err != nil && !store.IsNoRows(err) {
			return nil, err
		}
		if passed != nil {
			return s.createSession(ctx, q, n)
		}
	}
	ticket := newToken()
	now := s.now()
	if _, err := q.exec(ctx, `INSERT INTO auth_factor_tickets (hash, project_id, user_id, device_id, user_agent, via, created_at, expires_at, attempts)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)`, hashToken(ticket), n.projectID, n.userID, n.deviceID, n.userAgent, via, ms(now), ms(now.Add(TicketTTL))); err != nil {
		return nil, err
	}
	return &Session{Pending: &Pending{Ticket: ticket, Methods: f.Methods(), ExpiresAt: now.Add(TicketTTL).UTC()}}, nil
}

// CompleteRequest finishes a pending login with a TOTP code.
type CompleteRequest struct {
	Project                               *project.Project
	Ticket, DeviceID, Code, IP, UserAgent string
}

// CompleteLogin finishes a pending login: the ticket must be live, of this
// project and device, with tries left; the code a valid, unused TOTP code of
// the user. The device then counts as having passed the factor, and the
// session is opened with the factor fresh. Errors: invalid (deviceId, code;
// MsgTicketExpired; MsgInvalidFactor, MsgCodeReplayed), rate_limited
// (MsgFactorLocked).
func (s *Service) CompleteLogin(ctx context.Context, r CompleteRequest) (*Session, error) {
	if err := validDeviceID(r.DeviceID); err != nil {
		return nil, err
	}
	if err := validTOTPCode(r.Code); err != nil {
		return nil, err
	}
	if r.Ticket == "" || len(r.Ticket) > 64 {
		return nil, apperr.Fieldf(apperr.Invalid, "ticket", MsgTicketExpired)
	}
	if err := s.allowFactor(ctx, limitCheck{s.cfg.FactorIPLimiter, r.IP, "second-factor tries per IP"}); err != nil {
		return nil, err
	}
	now := s.now()
	var userID, via, email string
	var created int64
	err := s.db.QueryRow(ctx, `UPDATE auth_factor_tickets SET attempts = attempts + 1
		WHERE hash = ? AND project_id = ? AND device_id = ? AND consumed_at IS NULL AND attempts < ? AND expires_at > ?
		RETURNING user_id, via, created_at`, hashToken(r.Ticket), r.Project.ID, r.DeviceID, TicketMaxAttempts, ms(now)).Scan(&userID, &via, &created)
	if store.IsNoRows(err) {
		return nil, apperr.Fieldf(apperr.Invalid, "ticket", MsgTicketExpired)
	}
	if err != nil {
		return nil, err
	}
	if err := s.checkTOTP(ctx, r.Project.ID, userID, r.Code, false); err != nil {
		return nil, err
	}
	res, err := s.db.Exec(ctx, `UPDATE auth_factor_tickets SET consumed_at = ? WHERE hash = ? AND consumed_at IS NULL`, ms(now), hashToken(r.Ticket))
	if err != nil {
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return nil, apperr.Fieldf(apperr.Invalid, "ticket", MsgTicketExpired)
	}
	if err := s.db.QueryRow(ctx, `SELECT email FROM auth_users WHERE id = ?`, userID).Scan(&email); err != nil {
		return nil, err
	}
	n := newSession{userID: userID, email: publicEmail(email), projectID: r.Project.ID, deviceID: r.DeviceID, userAgent: r.UserAgent, verifiedAt: now, factorAt: now}
	if via == viaEmail {
		n.codeAt = time.UnixMilli(created)
	}
	var sess *Session
	err = s.db.InTx(ctx, func(tx *sqlTx) error {
		q := querier{db: s.db, tx: tx}
		if err := passDevice(ctx, q, userID, r.DeviceID, now); err != nil {
			return err
		}
		var err error
		sess, err = s.createSession(ctx, q, n)
		return err
	})
	return sess, err
}

// passDevice records that the device passed the user's second factor (and
// so is approved for the user).
func passDevice(ctx context.Context, q querier, userID, deviceID string, now time.Time) error {
	_, err := q.exec(ctx, `INSERT INTO auth_devices (user_id, device_id, approved_at, factor_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id, device_id) DO UPDATE SET factor_at = excluded.factor_at`, userID, deviceID, ms(now), ms(now))
	return err
}

// markFactor records on the session (and its device) that it proved a
// second factor now; passkey: by a passkey assertion.
func (s *Service) markFactor(ctx context.Context, a *Auth, passkey bool) (time.Time, error) {
	now := s.now()
	err := s.db.InTx(ctx, func(tx *sqlTx) error {
		q := querier{db: s.db, tx: tx}
		var err error
		if passkey {
			_, err = q.exec(ctx, `UPDATE auth_sessions SET factor_at = ?, passkey_at = ? WHERE id = ?`, ms(now), ms(now), a.SessionID)
		} else {
			_, err = q.exec(ctx, `UPDATE auth_sessions SET factor_at = ? WHERE id = ?`, ms(now), a.SessionID)
		}
		if err != nil {
			return err
		}
		return passDevice(ctx, q, a.UserID, a.DeviceID, now)
	})
	return now, err
}

// allowFactor is allow with the lockout message of second-factor tries.
func (s *Service) allowFactor(ctx context.Context, checks ...limitCheck) error {
	err := s.allow(ctx, checks...)
	var re *RetryError
	if err != nil && asRetry(err, &re) {
		mins := int((re.RetryAfter + time.Minute - 1) / time.Minute)
		return &RetryError{Err: apperr.Fieldf(apperr.RateLimited, "code", MsgFactorLocked, max(mins, 1)), RetryAfter: re.RetryAfter}
	}
	return err
}

func asRetry(err error, re **RetryError) bool {
	r, ok := err.(*RetryError)
	if ok {
		*re = r
	}
	return ok
}

func validTOTPCode(code string) error {
	if len(code) != 6 {
		return apperr.Fieldf(apperr.Invalid, "code", "The code must be 6 digits")
	}
	for i := 0; i < len(code); i++ {
		if code[i] < '0' || code[i] > '9' {
			return apperr.Fieldf(apperr.Invalid, "code", "The code must be 6 digits")
		}
	}
	return nil
}
