package auth

import (
	"context"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
)

// Actions of an e-mail start (spec §4).
const (
	ActionVerifyDevice = "VERIFY_DEVICE"
	ActionVerifyOTP    = "VERIFY_OTP"
	ActionConnect      = "CONNECT"
)

// Device approval states.
const (
	DevicePending  = "pending"
	DeviceApproved = "approved"
	DeviceExpired  = "expired"
)

// StartRequest begins an e-mail login.
type StartRequest struct {
	Project  *project.Project
	Email    string
	DeviceID string
	// AccessToken, when the frame has one, may make the answer CONNECT.
	AccessToken string
	IP          string
}

// StartResult is the answer of Start.
type StartResult struct {
	Action    string `json:"action"`
	RequestID string `json:"requestId,omitempty"`
}

// Start begins an e-mail login: CONNECT when AccessToken is a live session
// of this e-mail on this device; VERIFY_OTP with a code mailed when the
// device is approved for the e-mail; otherwise VERIFY_DEVICE with an
// approval link mailed. An e-mail without an account gets the same answer as
// one with an account on an unknown device, so the answer shows nothing about
// accounts. Errors: invalid (email, deviceId), forbidden (e-mail login off),
// rate_limited (limits; the cooldown with MsgCooldown), unavailable (mail).
func (s *Service) Start(ctx context.Context, r StartRequest) (StartResult, error) {
	email, err := NormalizeEmail("email", r.Email)
	if err != nil {
		return StartResult{}, err
	}
	if err := validDeviceID(r.DeviceID); err != nil {
		return StartResult{}, err
	}
	if !r.Project.Features.Email && !r.Project.Dev {
		return StartResult{}, apperr.Errorf(apperr.Forbidden, MsgEmailOff)
	}
	if r.AccessToken != "" {
		if sess, err := s.Authenticate(ctx, r.Project.ID, r.AccessToken); err == nil && sess.Email == email && equalStrings(sess.DeviceID, r.DeviceID) {
			return StartResult{Action: ActionConnect}, nil
		}
	}
	known, err := s.knownDevice(ctx, r.Project.ID, email, r.DeviceID)
	if err != nil {
		return StartResult{}, err
	}
	c := challenge{kind: kindDevice, deviceID: r.DeviceID}
	if known {
		c.kind = kindCode
	}
	if err := s.cooldown(ctx, r.Project.ID, email, c.kind, r.DeviceID); err != nil {
		return StartResult{}, err
	}
	if err := s.allow(ctx, s.startLimits(r.Project.ID, email, r.DeviceID, r.IP, known)...); err != nil {
		return StartResult{}, err
	}
	id, err := s.issue(ctx, r.Project, email, email, c)
	if err != nil {
		return StartResult{}, err
	}
	if known {
		return StartResult{Action: ActionVerifyOTP}, nil
	}
	return StartResult{Action: ActionVerifyDevice, RequestID: id}, nil
}

// startLimits are the limits a start is charged to, in order; the first
// refusal charges none after it. A link to an unknown device is what anyone
// who knows the address can ask for: the client's IP and device pay first,
// then this IP's share of the address, and only then the address's own
// budget, so one stranger cannot spend it all. A code goes only to a device
// the address's owner approved: it is charged to that device, never to the
// address's budget, so a stranger who spent that budget cannot keep the
// owner's next code from being sent.
func (s *Service) startLimits(projectID, email, deviceID, ip string, known bool) []limitCheck {
	checks := []limitCheck{
		{s.cfg.IPStartLimiter, ip, "e-mail logins per IP"},
		{s.cfg.DeviceStartLimiter, projectID + "/" + deviceID, "e-mail logins from this device"},
	}
	if !known {
		checks = append(checks,
			limitCheck{s.cfg.IPEmailLimiter, projectID + "/" + email + "/" + ip, "e-mails to this address from this IP"},
			limitCheck{s.cfg.EmailLimiter, projectID + "/" + email, "e-mails to this address"})
	}
	return append(checks, limitCheck{s.cfg.ProjectLimiter, projectID, "e-mails for this project"})
}

func (s *Service) knownDevice(ctx context.Context, projectID, email, deviceID string) (bool, error) {
	var one int
	err := s.db.QueryRow(ctx, `SELECT 1 FROM auth_devices d JOIN auth_users u ON u.id = d.user_id
		WHERE u.project_id = ? AND u.email = ? AND d.device_id = ?`, projectID, email, deviceID).Scan(&one)
	if store.IsNoRows(err) {
		return false, nil
	}
	return err == nil, err
}

// DeviceStatus answers the frame's poll after VERIFY_DEVICE: pending,
// approved or expired. An unknown request id, one replaced by a newer link
// for the same device, or one of another device is expired.
func (s *Service) DeviceStatus(ctx context.Context, projectID, requestID, deviceID string) (string, error) {
	if err := validDeviceID(deviceID); err != nil {
		return "", err
	}
	var dev string
	var expires int64
	var approved *int64
	err := s.db.QueryRow(ctx, `SELECT device_id, expires_at, approved_at FROM auth_challenges WHERE id = ? AND project_id = ? AND kind = ?`,
		requestID, projectID, kindDevice).Scan(&dev, &expires, &approved)
	switch {
	case store.IsNoRows(err):
		return DeviceExpired, nil
	case err != nil:
		return "", err
	case !equalStrings(dev, deviceID):
		return DeviceExpired, nil
	case approved != nil:
		return DeviceApproved, nil
	case expires <= ms(s.now()):
		return DeviceExpired, nil
	}
	return DevicePending, nil
}

// LinkState tells the approval page about a link token: the project's name
// and whether the link can still approve (pending) or not (expired, which
// includes used).
func (s *Service) LinkState(ctx context.Context, token string) (projectName, state string, err error) {
	var projectID string
	var expires int64
	var consumed *int64
	err = s.db.QueryRow(ctx, `SELECT project_id, expires_at, consumed_at FROM auth_challenges WHERE secret = ? AND kind = ?`,
		hashToken(token), kindDevice).Scan(&projectID, &expires, &consumed)
	if store.IsNoRows(err) {
		return "", DeviceExpired, nil
	}
	if err != nil {
		return "", "", err
	}
	if p, err := s.cfg.Projects.Get(ctx, projectID); err == nil {
		projectName = p.Name
	}
	if consumed != nil || expires <= ms(s.now()) {
		return projectName, DeviceExpired, nil
	}
	return projectName, DevicePending, nil
}

// Approve spends a device approval link: the device becomes known for the
// e-mail (creating the account on its first approval). It is one use: a
// second Approve of the token, or one after DeviceLinkTTL, fails (invalid).
func (s *Service) Approve(ctx context.Context, token string) (projectName string, err error) {
	var projectID, email, deviceID string
	now := s.now()
	err = s.db.InTx(ctx, func(tx *sqlTx) error {
		q := querier{db: s.db, tx: tx}
		err := q.queryRow(ctx, `UPDATE auth_challenges SET approved_at = ?, consumed_at = ?
			WHERE secret = ? AND kind = ? AND consumed_at IS NULL AND expires_at > ?
			RETURNING project_id, email, device_id`, ms(now), ms(now), hashToken(token), kindDevice, ms(now)).Scan(&projectID, &email, &deviceID)
		if store.IsNoRows(err) {
			return apperr.Fieldf(apperr.Invalid, "token", "This link has expired or was already used")
		}
		if err != nil {
			return err
		}
		userID, err := s.ensureUser(ctx, q, projectID, email)
		if err != nil {
			return err
		}
		_, err = q.exec(ctx, `INSERT INTO auth_devices (user_id, device_id, approved_at) VALUES (?, ?, ?) ON CONFLICT (user_id, device_id) DO NOTHING`, userID, deviceID, ms(now))
		return err
	})
	if err != nil {
		return "", err
	}
	if p, err := s.cfg.Projects.Get(ctx, projectID); err == nil {
		projectName = p.Name
	}
	return projectName, nil
}

// VerifyRequest finishes an e-mail login with the mailed code.
type VerifyRequest struct {
	Project                             *project.Project
	Email, DeviceID, OTP, IP, UserAgent string
}

// Verify checks the code mailed for Email on DeviceID and opens a session,
// or, for an account with a second factor and a device that has not passed
// it, a pending login (Session.Pending). Errors: invalid (email, deviceId, a malformed otp; MsgInvalidCode for a
// wrong, expired, used or exhausted code, or none at all), rate_limited.
func (s *Service) Verify(ctx context.Context, r VerifyRequest) (*Session, error) {
	email, err := NormalizeEmail("email", r.Email)
	if err != nil {
		return nil, err
	}
	if err := validDeviceID(r.DeviceID); err != nil {
		return nil, err
	}
	if err := validOTP(r.OTP); err != nil {
		return nil, err
	}
	if err := s.allow(ctx, limitCheck{s.cfg.IPVerifyLimiter, r.IP, "code checks per IP"}); err != nil {
		return nil, err
	}
	if _, err := s.consumeCode(ctx, r.Project.ID, email, kindCode, r.DeviceID, r.OTP, nil); err != nil {
		return nil, err
	}
	var sess *Session
	err = s.db.InTx(ctx, func(tx *sqlTx) error {
		q := querier{db: s.db, tx: tx}
		userID, err := s.ensureUser(ctx, q, r.Project.ID, email)
		if err != nil {
			return err
		}
		// With a second factor enrolled, a device that has not passed it
		// gets a pending login instead (mfa.go).
		now := s.now()
		sess, err = s.loginOrPend(ctx, q, newSession{userID: userID, email: email, projectID: r.Project.ID, deviceID: r.DeviceID, userAgent: r.UserAgent, verifiedAt: now, codeAt: now}, viaEmail)
		return err
	})
	return sess, err
}
