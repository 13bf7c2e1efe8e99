package auth

import (
	"context"
	"strings"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/store"
)

// socialEmailPrefix marks the auth_users.email of an account known only by a
// social identity without a provider-verified e-mail. It has no "@", so
// NormalizeEmail refuses it: no e-mail login ever reaches such an account,
// and the account's e-mail is shown as "" (publicEmail).
const socialEmailPrefix = "social:"

// publicEmail is the e-mail an account shows: "" for a social-only account.
func publicEmail(stored string) string {
	if strings.HasPrefix(stored, socialEmailPrefix) {
		return ""
	}
	return stored
}

// SocialIdentity is a person as a social provider vouched for them, after
// the provider's answer was verified (internal/social).
type SocialIdentity struct {
	Provider string
	// Subject is the provider's stable account id.
	Subject string
	Email   string
	// EmailVerified: the provider says the person proved the address. Only
	// then does the login reach the e-mail account of that address.
	EmailVerified bool
	Username      string
}

// SocialLoginRequest opens a session for a verified social identity.
type SocialLoginRequest struct {
	ProjectID, DeviceID, UserAgent string
	Identity                       SocialIdentity
}

// SocialLogin opens a session for r.Identity on r.DeviceID, on the user the
// identity was linked to before; else, when the provider verified the
// e-mail, on the e-mail account of that address (created if new), so the
// person gets the same wallet by e-mail and by this provider; else on a new
// social-only account. An unverified e-mail never links. The device counts
// as approved for the user (the provider authenticated the person) and the
// session is fresh. An account with a second factor gets a pending login
// (Session.Pending) instead, finished with the factor (mfa.go). It also returns the user's provider username.
// Errors: invalid (deviceId, an empty provider or subject).
func (s *Service) SocialLogin(ctx context.Context, r SocialLoginRequest) (*Session, error) {
	if err := validDeviceID(r.DeviceID); err != nil {
		return nil, err
	}
	id := r.Identity
	if id.Provider == "" || id.Subject == "" || len(id.Subject) > 255 {
		return nil, apperr.Errorf(apperr.Invalid, "The provider did not name the account")
	}
	email := ""
	if id.Email != "" {
		if e, err := NormalizeEmail("email", id.Email); err == nil {
			email = e
		}
	}
	if len(id.Username) > 255 {
		id.Username = id.Username[:255]
	}
	var sess *Session
	now := ms(s.now())
	err := s.db.InTx(ctx, func(tx *sqlTx) error {
		q := querier{db: s.db, tx: tx}
		var userID string
		err := q.queryRow(ctx, `SELECT user_id FROM auth_identities WHERE project_id = ? AND provider = ? AND subject = ?`,
			r.ProjectID, id.Provider, id.Subject).Scan(&userID)
		switch {
		case err == nil:
			if _, err := q.exec(ctx, `UPDATE auth_identities SET email = ?, email_verified = ?, username = ?, last_login_at = ?
				WHERE project_id = ? AND provider = ? AND subject = ?`, email, id.EmailVerified && email != "", id.Username, now, r.ProjectID, id.Provider, id.Subject); err != nil {
				return err
			}
		case !store.IsNoRows(err):
			return err
		default:
			key := socialEmailPrefix + id.Provider + ":" + id.Subject
			if id.EmailVerified && email != "" {
				key = email
			}
			if userID, err = s.ensureUser(ctx, q, r.ProjectID, key); err != nil {
				return err
			}
			if _, err := q.exec(ctx, `INSERT INTO auth_identities (project_id, provider, subject, user_id, email, email_verified, username, created_at, last_login_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, r.ProjectID, id.Provider, id.Subject, userID, email, id.EmailVerified && email != "", id.Username, now, now); err != nil {
				return err
			}
		}
		var stored string
		if err := q.queryRow(ctx, `SELECT email FROM auth_users WHERE id = ?`, userID).Scan(&stored); err != nil {
			return err
		}
		// An account with a second factor gets a pending login: the
		// provider vouches for the person's identity there, not for the
		// factor. The device counts as approved only once it is passed.
		sess, err = s.loginOrPend(ctx, q, newSession{userID: userID, email: publicEmail(stored), projectID: r.ProjectID, deviceID: r.DeviceID, userAgent: r.UserAgent, verifiedAt: s.now()}, viaSocial)
		if err != nil || sess.Pending != nil {
			return err
		}
		_, err = q.exec(ctx, `INSERT INTO auth_devices (user_id, device_id, approved_at) VALUES (?, ?, ?) ON CONFLICT (user_id, device_id) DO NOTHING`, userID, r.DeviceID, now)
		return err
	})
	return sess, err
}

// SocialAccount is a social identity of a user, as GET /auth/v1/email/me
// and the frame show it.
type SocialAccount struct {
	Provider string `json:"provider"`
	Username string `json:"username"`
	Email    string `json:"email"`
}

// SocialAccounts lists the social identities linked to the session's user,
// the most recently used first.
func (s *Service) SocialAccounts(ctx context.Context, a *Auth) ([]SocialAccount, error) {
	rows, err := s.db.Query(ctx, `SELECT provider, username, email FROM auth_identities WHERE user_id = ? ORDER BY last_login_at DESC, provider`, a.UserID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []SocialAccount{}
	for rows.Next() {
		var sa SocialAccount
		if err := rows.Scan(&sa.Provider, &sa.Username, &sa.Email); err != nil {
			return nil, err
		}
		out = append(out, sa)
	}
	return out, rows.Err()
}
