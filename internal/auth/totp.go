package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
)

// TOTP parameters (RFC 6238 with the values every authenticator app reads
// from an otpauth:// URI by default).
const (
	totpPeriod = 30 // seconds per step
	// totpSkew: a code of the step before or after the current one is
	// accepted too (clocks of phones drift; a code typed at a step's end).
	totpSkew = 1
	// TOTPEnrolTTL is how long an enrolment waits for its first code.
	TOTPEnrolTTL = 10 * time.Minute
)

var totpOpts = totp.ValidateOpts{Period: totpPeriod, Skew: 0, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// TOTPEnrolment is a new authenticator's secret, shown once: the frame
// shows the URI as a QR code and the secret for typing.
type TOTPEnrolment struct {
	Secret    string    `json:"secret"`
	URI       string    `json:"uri"`
	ConfirmBy time.Time `json:"confirmBy"`
}

// EnrollTOTP makes a TOTP secret for the session's user, stored sealed
// under the key-encryption key and not counted until ConfirmTOTP. A user
// without a second factor needs a fresh session (a code within FreshWindow);
// a user with one (a passkey), a fresh factor. Errors: forbidden (another
// device, MsgNotFresh, MsgFactorRequired), conflict (MsgTOTPEnrolled).
func (s *Service) EnrollTOTP(ctx context.Context, p *project.Project, a *Auth, deviceID string) (*TOTPEnrolment, error) {
	if err := boundTo(a, deviceID); err != nil {
		return nil, err
	}
	if err := s.enrolGate(ctx, a); err != nil {
		return nil, err
	}
	issuer := p.Name
	if issuer == "" {
		issuer = "Latch"
	}
	account := a.Email
	if account == "" {
		account = "wallet"
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: issuer, AccountName: account, Period: totpPeriod, SecretSize: 20, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1, Rand: rand.Reader})
	if err != nil {
		return nil, err
	}
	keyID, sealed := s.cfg.Keys.Seal(aad(a.UserID, "totp"), []byte(key.Secret()))
	now := s.now()
	// Replaces an unconfirmed enrolment, never a confirmed one.
	res, err := s.db.Exec(ctx, `INSERT INTO auth_totp (user_id, key_id, secret, created_at, last_step) VALUES (?, ?, ?, ?, 0)
		ON CONFLICT (user_id) DO UPDATE SET key_id = excluded.key_id, secret = excluded.secret, created_at = excluded.created_at, last_step = 0
		WHERE auth_totp.confirmed_at IS NULL`, a.UserID, keyID, sealed, ms(now))
	if err != nil {
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return nil, apperr.Errorf(apperr.Conflict, MsgTOTPEnrolled)
	}
	return &TOTPEnrolment{Secret: key.Secret(), URI: key.URL(), ConfirmBy: now.Add(TOTPEnrolTTL).UTC()}, nil
}

// enrolGate: adding a factor needs a fresh login when the user has none,
// and a fresh factor when the user has one, so that a stolen session can
// neither add the thief's factor nor lock the owner out.
func (s *Service) enrolGate(ctx context.Context, a *Auth) error {
	f, err := s.factors(ctx, querier{db: s.db}, a.UserID)
	if err != nil {
		return err
	}
	now := s.now()
	if f.Any() {
		if !a.FactorFresh(now) {
			return apperr.Fieldf(apperr.Forbidden, "secondFactor", MsgFactorRequired)
		}
		return nil
	}
	if !a.Fresh(now) {
		return apperr.Errorf(apperr.Forbidden, MsgNotFresh)
	}
	return nil
}

// ConfirmTOTP turns on the enrolled authenticator with its first valid
// code (within TOTPEnrolTTL of EnrollTOTP); the session and its device have
// then passed the factor. Errors: invalid (code; MsgInvalidFactor,
// MsgEnrolExpired), not_found (MsgNoTOTP), conflict (already confirmed),
// rate_limited (MsgFactorLocked).
func (s *Service) ConfirmTOTP(ctx context.Context, a *Auth, deviceID, code, ip string) error {
	if err := boundTo(a, deviceID); err != nil {
		return err
	}
	if err := validTOTPCode(code); err != nil {
		return err
	}
	if err := s.allowFactor(ctx, limitCheck{s.cfg.FactorIPLimiter, ip, "second-factor tries per IP"}); err != nil {
		return err
	}
	var confirmed *int64
	var created int64
	err := s.db.QueryRow(ctx, `SELECT confirmed_at, created_at FROM auth_totp WHERE user_id = ?`, a.UserID).Scan(&confirmed, &created)
	switch {
	case store.IsNoRows(err):
		return apperr.Errorf(apperr.NotFound, MsgNoTOTP)
	case err != nil:
		return err
	case confirmed != nil:
		return apperr.Errorf(apperr.Conflict, MsgTOTPEnrolled)
	case s.now().Sub(time.UnixMilli(created)) > TOTPEnrolTTL:
		return apperr.Fieldf(apperr.Invalid, "code", MsgEnrolExpired)
	}
	if err := s.checkTOTP(ctx, a.ProjectID, a.UserID, code, true); err != nil {
		return err
	}
	if _, err := s.db.Exec(ctx, `UPDATE auth_totp SET confirmed_at = ? WHERE user_id = ? AND confirmed_at IS NULL`, ms(s.now()), a.UserID); err != nil {
		return err
	}
	_, err = s.markFactor(ctx, a, false)
	return err
}

// VerifyTOTP proves the factor for the session (a step-up before export,
// e-mail change, recovery or a factor change). Errors: as ConfirmTOTP.
func (s *Service) VerifyTOTP(ctx context.Context, a *Auth, deviceID, code, ip string) (time.Time, error) {
	if err := boundTo(a, deviceID); err != nil {
		return time.Time{}, err
	}
	if err := validTOTPCode(code); err != nil {
		return time.Time{}, err
	}
	if err := s.allowFactor(ctx, limitCheck{s.cfg.FactorIPLimiter, ip, "second-factor tries per IP"}); err != nil {
		return time.Time{}, err
	}
	if err := s.checkTOTP(ctx, a.ProjectID, a.UserID, code, false); err != nil {
		return time.Time{}, err
	}
	return s.markFactor(ctx, a, false)
}

// DisableTOTP removes the user's authenticator. It needs a valid factor: a
// code of the authenticator itself, or, without one, a passkey assertion
// made by this session within FactorWindow. Errors: as ConfirmTOTP;
// forbidden (MsgFactorRequired).
func (s *Service) DisableTOTP(ctx context.Context, a *Auth, deviceID, code, ip string) error {
	if err := boundTo(a, deviceID); err != nil {
		return err
	}
	if code == "" {
		if !a.PasskeyFresh(s.now()) {
			return apperr.Fieldf(apperr.Forbidden, "code", MsgFactorRequired)
		}
	} else {
		if err := validTOTPCode(code); err != nil {
			return err
		}
		if err := s.allowFactor(ctx, limitCheck{s.cfg.FactorIPLimiter, ip, "second-factor tries per IP"}); err != nil {
			return err
		}
		if err := s.checkTOTP(ctx, a.ProjectID, a.UserID, code, false); err != nil {
			return err
		}
	}
	res, err := s.db.Exec(ctx, `DELETE FROM auth_totp WHERE user_id = ?`, a.UserID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.Errorf(apperr.NotFound, MsgNoTOTP)
	}
	return nil
}

// checkTOTP accepts code when it is the user's TOTP code of the current
// time step or of the step on either side, and of a step later than the
// last one accepted (one conditional UPDATE, so a code works once even when
// two requests race). Each call is charged to the user's try limit first.
// unconfirmed: an enrolment waiting for its first code may answer.
func (s *Service) checkTOTP(ctx context.Context, projectID, userID, code string, unconfirmed bool) error {
	if err := s.allowFactor(ctx, limitCheck{s.cfg.FactorUserLimiter, projectID + "/" + userID, "second-factor tries for this account"}); err != nil {
		return err
	}
	var keyID string
	var sealed []byte
	var confirmed *int64
	var last int64
	err := s.db.QueryRow(ctx, `SELECT key_id, secret, confirmed_at, last_step FROM auth_totp WHERE user_id = ?`, userID).Scan(&keyID, &sealed, &confirmed, &last)
	if store.IsNoRows(err) || err == nil && confirmed == nil && !unconfirmed {
		return apperr.Errorf(apperr.NotFound, MsgNoTOTP)
	}
	if err != nil {
		return err
	}
	secret, err := s.cfg.Keys.Open(keyID, aad(userID, "totp"), sealed)
	if err != nil {
		return err
	}
	now := s.now().Unix() / totpPeriod
	step := int64(-1)
	for d := int64(-totpSkew); d <= totpSkew; d++ {
		want, err := totp.GenerateCodeCustom(string(secret), time.Unix((now+d)*totpPeriod, 0), totpOpts)
		if err != nil {
			return err
		}
		// Every candidate is compared, so the time taken does not say which.
		if subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			step = now + d
		}
	}
	if step < 0 {
		return apperr.Fieldf(apperr.Invalid, "code", MsgInvalidFactor)
	}
	if step <= last {
		return apperr.Fieldf(apperr.Invalid, "code", MsgCodeReplayed)
	}
	if s.afterTOTPCheck != nil {
		s.afterTOTPCheck()
	}
	res, err := s.db.Exec(ctx, `UPDATE auth_totp SET last_step = ? WHERE user_id = ? AND last_step < ?`, step, userID, step)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return apperr.Fieldf(apperr.Invalid, "code", MsgCodeReplayed)
	}
	return nil
}
