// Package auth is latchd's e-mail login for the embedded wallet: one-time
// codes and device approval links sent by mail, sessions with rotating
// refresh tokens, and the encrypted storage of the wallet's auth and
// recovery key shares. docs/auth-api.md is its HTTP contract.
package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/mail"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/ratelimit"
	"github.com/latchkit/latch/internal/store"
)

// The rules of codes, links and sessions.
const (
	CodeTTL = 10 * time.Minute
	// MaxAttempts: a code's 6th try fails even with the right code.
	MaxAttempts = 5
	// ResendCooldown is spec §5's e-mail login cooldown.
	ResendCooldown = 30 * time.Second
	DeviceLinkTTL  = 10 * time.Minute
	AccessTTL      = 15 * time.Minute
	RefreshTTL     = 30 * 24 * time.Hour
	// FreshWindow is how long after its verify a session counts as fresh:
	// long enough to set up or recover a wallet, short enough that a stolen
	// refresh token does not reach the recovery share.
	FreshWindow = 10 * time.Minute
)

// Default limits: mails per e-mail address and per address from one client
// IP, starts per device, starts and verifies per client IP, mails per
// project. Kept low because each start sends a mail.
const (
	EmailLimit       = 10
	EmailWindow      = time.Hour
	IPEmailLimit     = 5
	DeviceStartLimit = 10
	DeviceWindow     = time.Hour
	IPStartLimit     = 30
	IPVerifyLimit    = 60
	IPWindow         = 10 * time.Minute
	ProjectLimit     = 1000
	ProjectWindow    = time.Hour
	deviceIDMinLen   = 22
	deviceIDMaxLen   = 64
)

// User-facing messages.
const (
	// MsgCooldown is spec §5's resend message; %d is whole seconds left.
	MsgCooldown = "Please try again after %d seconds"
	// MsgSendFailed is spec §8's message for a login that could not start.
	MsgSendFailed     = "A problem occurred while trying initialize authentication"
	MsgInvalidCode    = "Invalid or expired code"
	MsgSessionExpired = "Session expired"
	MsgNotFresh       = "A fresh login is required"
	MsgEmailOff       = "Email login is not enabled for this project"
)

// Config configures a Service.
type Config struct {
	DB       *store.DB
	Projects *project.Service
	// Secret keys the codes' HMAC (--auth-secret, at least MinSecretLen bytes).
	Secret []byte
	// Keys encrypt the auth shares and password-mode recovery ciphertexts
	// (--auth-kek); RecoveryKeys the operator-mode recovery shares
	// (--auth-recovery-key).
	Keys, RecoveryKeys *Keyring
	Mail               mail.Sender
	Templates          *mail.Templates
	// LinkBase is the frame origin's public URL: device approval links are
	// LinkBase + ApprovePath. It comes from configuration, never from a
	// request's Host, so a forged Host cannot send a link elsewhere.
	LinkBase func() string
	// Limiters; nil ones are in-memory limiters at the default rates. The
	// app gives Redis-backed ones when latchd has --redis-url.
	EmailLimiter, IPStartLimiter, IPVerifyLimiter, ProjectLimiter ratelimit.Limiter
	// IPEmailLimiter is one client IP's share of an address's mails (keyed
	// project/e-mail/IP, EmailWindow); DeviceStartLimiter a device's starts
	// (keyed project/device).
	IPEmailLimiter, DeviceStartLimiter ratelimit.Limiter
	// FactorUserLimiter and FactorIPLimiter charge every second-factor try
	// (a TOTP code, a passkey assertion), keyed by user and by client IP;
	// ExportLimiter every authorised key export, keyed by user.
	FactorUserLimiter, FactorIPLimiter, ExportLimiter ratelimit.Limiter
	// Now is the clock; tests replace it.
	Now    func() time.Time
	Logger *slog.Logger
}

// ApprovePath is the path of the device approval page on the frame origin.
const ApprovePath = "/auth/v1/device/approve"

// Service runs e-mail login. Its methods return *apperr.Error for what the
// caller can act on (with the messages of docs/auth-api.md); other errors
// are internal.
type Service struct {
	cfg Config
	db  *store.DB
	// afterReserve, in tests, runs between a right code's reserved try and
	// its consumption, to line concurrent verifies up there.
	afterReserve func()
	// afterTOTPCheck, in tests, runs between a right TOTP code's check and
	// the update that spends its step, to line concurrent uses up there.
	afterTOTPCheck func()
}

// New returns a Service for cfg.
func New(cfg Config) (*Service, error) {
	if len(cfg.Secret) < MinSecretLen {
		return nil, fmt.Errorf("auth: the secret must be at least %d bytes", MinSecretLen)
	}
	if cfg.DB == nil || cfg.Projects == nil || cfg.Keys == nil || cfg.RecoveryKeys == nil || cfg.Mail == nil || cfg.Templates == nil || cfg.LinkBase == nil {
		return nil, errors.New("auth: Config needs DB, Projects, Keys, RecoveryKeys, Mail, Templates and LinkBase")
	}
	if cfg.EmailLimiter == nil {
		cfg.EmailLimiter = ratelimit.NewMemory(EmailLimit, EmailWindow)
	}
	if cfg.IPStartLimiter == nil {
		cfg.IPStartLimiter = ratelimit.NewMemory(IPStartLimit, IPWindow)
	}
	if cfg.IPVerifyLimiter == nil {
		cfg.IPVerifyLimiter = ratelimit.NewMemory(IPVerifyLimit, IPWindow)
	}
	if cfg.IPEmailLimiter == nil {
		cfg.IPEmailLimiter = ratelimit.NewMemory(IPEmailLimit, EmailWindow)
	}
	if cfg.DeviceStartLimiter == nil {
		cfg.DeviceStartLimiter = ratelimit.NewMemory(DeviceStartLimit, DeviceWindow)
	}
	if cfg.ProjectLimiter == nil {
		cfg.ProjectLimiter = ratelimit.NewMemory(ProjectLimit, ProjectWindow)
	}
	if cfg.FactorUserLimiter == nil {
		cfg.FactorUserLimiter = ratelimit.NewMemory(FactorUserLimit, FactorUserWindow)
	}
	if cfg.FactorIPLimiter == nil {
		cfg.FactorIPLimiter = ratelimit.NewMemory(FactorIPLimit, IPWindow)
	}
	if cfg.ExportLimiter == nil {
		cfg.ExportLimiter = ratelimit.NewMemory(ExportLimit, ExportWindow)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Service{cfg: cfg, db: cfg.DB}, nil
}

// RetryError is a refusal that may be retried after RetryAfter (HTTP 429
// with Retry-After).
type RetryError struct {
	Err        *apperr.Error
	RetryAfter time.Duration
}

func (e *RetryError) Error() string { return e.Err.Error() }

// Unwrap lets apperr.As find the *apperr.Error.
func (e *RetryError) Unwrap() error { return e.Err }

func (s *Service) now() time.Time { return s.cfg.Now() }

func ms(t time.Time) int64 { return t.UnixMilli() }

// allow charges one event to each limiter; the first refusal is returned.
// A limiter that cannot decide (Redis down) refuses: mail must not flow
// unlimited.
func (s *Service) allow(ctx context.Context, checks ...limitCheck) error {
	for _, c := range checks {
		d, err := c.l.Allow(ctx, c.key)
		if err != nil {
			s.cfg.Logger.WarnContext(ctx, "auth: rate limiter unavailable", "limit", c.what, "err", err)
			return apperr.Errorf(apperr.Unavailable, "Rate limiter unavailable; try again later")
		}
		if !d.Allowed {
			secs := int((d.RetryAfter + time.Second - 1) / time.Second)
			return &RetryError{Err: apperr.Errorf(apperr.RateLimited, "Too many requests: %s; retry in %d s", c.what, secs), RetryAfter: d.RetryAfter}
		}
	}
	return nil
}

type limitCheck struct {
	l         ratelimit.Limiter
	key, what string
}

// validDeviceID checks a frame's device id: 22–64 characters of base64url.
func validDeviceID(id string) error {
	if len(id) < deviceIDMinLen || len(id) > deviceIDMaxLen {
		return apperr.Fieldf(apperr.Invalid, "deviceId", "deviceId must be %d to %d characters of A-Z a-z 0-9 - _", deviceIDMinLen, deviceIDMaxLen)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return apperr.Fieldf(apperr.Invalid, "deviceId", "deviceId must be %d to %d characters of A-Z a-z 0-9 - _", deviceIDMinLen, deviceIDMaxLen)
		}
	}
	return nil
}

func validOTP(otp string) error {
	if len(otp) != 6 {
		return apperr.Fieldf(apperr.Invalid, "otp", "The code must be 6 digits")
	}
	for i := 0; i < len(otp); i++ {
		if otp[i] < '0' || otp[i] > '9' {
			return apperr.Fieldf(apperr.Invalid, "otp", "The code must be 6 digits")
		}
	}
	return nil
}
