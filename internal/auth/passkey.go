package auth

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/url"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
)

// CeremonyTTL is how long a WebAuthn challenge waits for its answer.
const CeremonyTTL = 5 * time.Minute

// Kinds of WebAuthn ceremony.
const (
	ceremonyRegister = "register" // a signed-in user adds a passkey
	ceremonyLogin    = "login"    // a passkey login (discoverable credential)
	ceremonyAssert   = "assert"   // a signed-in user's step-up
)

// Messages of passkeys.
const (
	MsgPasskeysNeedDomain  = "Passkeys need the frame origin on a domain name (such as localhost), not an IP address"
	MsgCeremonyExpired     = "This passkey request has expired; start again"
	MsgPasskeyRefused      = "The passkey was not accepted"
	MsgPasskeyCloned       = "This passkey is disabled: its signature counter went back, so a copy of it may exist; use another factor"
	MsgNoPasskey           = "No passkey is registered"
	MsgPasskeyKeysRecovery = "This passkey protects your recovery share; set up recovery with another passkey first"
)

const maxCredentialJSON = 8 << 10

// Ceremony is a WebAuthn ceremony's options for navigator.credentials
// (publicKey inside) and the id its answer must name.
type Ceremony struct {
	ChallengeID string `json:"challengeId"`
	Options     any    `json:"options"`
}

// PasskeyInfo describes a registered passkey.
type PasskeyInfo struct {
	ID           string     `json:"id"`
	Name         string     `json:"name"`
	CreatedAt    time.Time  `json:"createdAt"`
	LastUsedAt   *time.Time `json:"lastUsedAt,omitempty"`
	BackedUp     bool       `json:"backedUp"`
	CloneWarning bool       `json:"cloneWarning"`
}

// webUser is a user as the WebAuthn library sees it. Its handle is the
// user id, which names no e-mail address.
type webUser struct {
	id, name string
	creds    []webauthn.Credential
}

func (u *webUser) WebAuthnID() []byte                         { return []byte(u.id) }
func (u *webUser) WebAuthnName() string                       { return u.name }
func (u *webUser) WebAuthnDisplayName() string                { return u.name }
func (u *webUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// relyingParty is the WebAuthn relying party of the frame origin: its host
// is the RP ID and its origin the only one allowed, so a passkey made in
// the frame answers nowhere else (not the dapp's page, not latchd's API
// origin).
func (s *Service) relyingParty(p *project.Project) (*webauthn.WebAuthn, error) {
	u, err := url.Parse(s.cfg.LinkBase())
	if err != nil || u.Host == "" {
		return nil, apperr.Errorf(apperr.Unavailable, "The frame origin is not configured")
	}
	host := u.Hostname()
	if net.ParseIP(host) != nil {
		return nil, apperr.Errorf(apperr.Unavailable, MsgPasskeysNeedDomain)
	}
	name := p.Name
	if name == "" {
		name = "Latch"
	}
	return webauthn.New(&webauthn.Config{
		RPID: host, RPDisplayName: name, RPOrigins: []string{u.Scheme + "://" + u.Host},
		AttestationPreference: protocol.PreferNoAttestation,
		AuthenticatorSelection: protocol.AuthenticatorSelection{
			ResidentKey: protocol.ResidentKeyRequirementRequired, RequireResidentKey: protocol.ResidentKeyRequired(),
			UserVerification: protocol.VerificationRequired,
		},
		Timeouts: webauthn.TimeoutsConfig{
			Login:        webauthn.TimeoutConfig{Enforce: true, Timeout: CeremonyTTL, TimeoutUVD: CeremonyTTL},
			Registration: webauthn.TimeoutConfig{Enforce: true, Timeout: CeremonyTTL, TimeoutUVD: CeremonyTTL},
		},
	})
}

// loadUser reads a user's passkeys for the library.
func (s *Service) loadUser(ctx context.Context, userID, name string) (*webUser, error) {
	rows, err := s.db.Query(ctx, `SELECT credential_id, public_key, attestation_type, aaguid, sign_count, clone_warning, transports, flags FROM auth_passkeys WHERE user_id = ? ORDER BY created_at`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	u := &webUser{id: userID, name: name}
	if u.name == "" {
		u.name = "wallet"
	}
	for rows.Next() {
		var c webauthn.Credential
		var count int64
		var clone, flags int
		var transports string
		if err := rows.Scan(&c.ID, &c.PublicKey, &c.AttestationType, &c.Authenticator.AAGUID, &count, &clone, &transports, &flags); err != nil {
			return nil, err
		}
		c.Authenticator.SignCount, c.Authenticator.CloneWarning = uint32(count), clone != 0
		c.Flags = webauthn.NewCredentialFlags(protocol.AuthenticatorFlags(flags))
		var ts []protocol.AuthenticatorTransport
		json.Unmarshal([]byte(transports), &ts)
		c.Transport = ts
		u.creds = append(u.creds, c)
	}
	return u, rows.Err()
}

// saveCeremony keeps a ceremony's session data server-side, bound to the
// device (and the session, for a signed-in ceremony), and returns its id.
func (s *Service) saveCeremony(ctx context.Context, projectID, kind, userID, sessionID, deviceID string, sd *webauthn.SessionData) (string, error) {
	data, err := json.Marshal(sd)
	if err != nil {
		return "", err
	}
	id, now := newToken(), s.now()
	_, err = s.db.Exec(ctx, `INSERT INTO auth_webauthn_challenges (id, project_id, kind, user_id, session_id, device_id, data, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, projectID, kind, userID, sessionID, deviceID, string(data), ms(now), ms(now.Add(CeremonyTTL)))
	return id, err
}

// takeCeremony spends a ceremony: live, of this project, kind, device and
// session; once. Error: invalid (MsgCeremonyExpired).
func (s *Service) takeCeremony(ctx context.Context, projectID, id, kind, sessionID, deviceID string) (*webauthn.SessionData, string, error) {
	var data, userID string
	now := s.now()
	err := s.db.QueryRow(ctx, `UPDATE auth_webauthn_challenges SET consumed_at = ?
		WHERE id = ? AND project_id = ? AND kind = ? AND session_id = ? AND device_id = ? AND consumed_at IS NULL AND expires_at > ?
		RETURNING data, user_id`, ms(now), id, projectID, kind, sessionID, deviceID, ms(now)).Scan(&data, &userID)
	if store.IsNoRows(err) {
		return nil, "", apperr.Fieldf(apperr.Invalid, "challengeId", MsgCeremonyExpired)
	}
	if err != nil {
		return nil, "", err
	}
	var sd webauthn.SessionData
	if err := json.Unmarshal([]byte(data), &sd); err != nil {
		return nil, "", err
	}
	return &sd, userID, nil
}

func (s *Service) refused(ctx context.Context, what string, err error) error {
	s.cfg.Logger.InfoContext(ctx, "auth: passkey refused", "step", what, "err", err)
	return apperr.Fieldf(apperr.Unauthorized, "credential", MsgPasskeyRefused)
}

// BeginPasskeyRegistration starts adding a passkey (a discoverable
// credential with user verification) to the session's user. It needs what
// adding a factor needs (enrolGate). Errors: forbidden, unavailable
// (MsgPasskeysNeedDomain).
func (s *Service) BeginPasskeyRegistration(ctx context.Context, p *project.Project, a *Auth, deviceID string) (*Ceremony, error) {
	if err := boundTo(a, deviceID); err != nil {
		return nil, err
	}
	if err := s.enrolGate(ctx, a); err != nil {
		return nil, err
	}
	wa, err := s.relyingParty(p)
	if err != nil {
		return nil, err
	}
	u, err := s.loadUser(ctx, a.UserID, a.Email)
	if err != nil {
		return nil, err
	}
	exclude := make([]protocol.CredentialDescriptor, 0, len(u.creds))
	for _, c := range u.creds {
		exclude = append(exclude, c.Descriptor())
	}
	// prf: the frame asks for the PRF extension (passkey recovery); latchd
	// only says it is wanted and never sees its output.
	opts, sd, err := wa.BeginRegistration(u, webauthn.WithExclusions(exclude),
		webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementRequired),
		webauthn.WithExtensions(webauthn.WithExtensionCredProps(), webauthn.WithExtensionPRFSupport()))
	if err != nil {
		return nil, err
	}
	id, err := s.saveCeremony(ctx, p.ID, ceremonyRegister, a.UserID, a.SessionID, deviceID, sd)
	if err != nil {
		return nil, err
	}
	return &Ceremony{ChallengeID: id, Options: opts}, nil
}

// FinishPasskeyRegistration checks the authenticator's answer (challenge,
// origin, RP ID, user verification, signature) and stores the passkey; the
// session has then proved a passkey. Errors: invalid (MsgCeremonyExpired,
// name), unauthorized (MsgPasskeyRefused), conflict (already registered).
func (s *Service) FinishPasskeyRegistration(ctx context.Context, p *project.Project, a *Auth, deviceID, challengeID, name string, credential json.RawMessage) (*PasskeyInfo, error) {
	if err := boundTo(a, deviceID); err != nil {
		return nil, err
	}
	if len(name) > 64 {
		return nil, apperr.Fieldf(apperr.Invalid, "name", "name must be at most 64 characters")
	}
	if len(credential) == 0 || len(credential) > maxCredentialJSON {
		return nil, apperr.Fieldf(apperr.Invalid, "credential", "credential must be the authenticator's answer, at most %d bytes", maxCredentialJSON)
	}
	wa, err := s.relyingParty(p)
	if err != nil {
		return nil, err
	}
	sd, _, err := s.takeCeremony(ctx, p.ID, challengeID, ceremonyRegister, a.SessionID, deviceID)
	if err != nil {
		return nil, err
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(credential)
	if err != nil {
		return nil, s.refused(ctx, "parse registration", err)
	}
	u, err := s.loadUser(ctx, a.UserID, a.Email)
	if err != nil {
		return nil, err
	}
	cred, err := wa.CreateCredential(u, *sd, parsed)
	if err != nil {
		return nil, s.refused(ctx, "registration", err)
	}
	transports, _ := json.Marshal(cred.Transport)
	now := s.now()
	info := &PasskeyInfo{ID: base64.RawURLEncoding.EncodeToString(cred.ID), Name: name, CreatedAt: now.UTC(), BackedUp: cred.Flags.BackupState}
	_, err = s.db.Exec(ctx, `INSERT INTO auth_passkeys (credential_id, user_id, id, name, public_key, attestation_type, aaguid, sign_count, transports, flags, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, cred.ID, a.UserID, info.ID, name, cred.PublicKey, cred.AttestationType, cred.Authenticator.AAGUID,
		int64(cred.Authenticator.SignCount), string(transports), int(cred.Flags.ProtocolValue()), ms(now))
	if store.IsUniqueViolation(err) {
		return nil, apperr.Fieldf(apperr.Conflict, "credential", "This passkey is already registered")
	}
	if err != nil {
		return nil, err
	}
	if _, err := s.markFactor(ctx, a, true); err != nil {
		return nil, err
	}
	return info, nil
}

// BeginPasskeyLogin starts a passkey login: options without a user or an
// allow list (the authenticator offers its discoverable credentials for
// the RP), user verification required, the challenge kept server-side and
// bound to deviceID. Errors: invalid (deviceId), rate_limited, unavailable.
func (s *Service) BeginPasskeyLogin(ctx context.Context, p *project.Project, deviceID, ip string) (*Ceremony, error) {
	if err := validDeviceID(deviceID); err != nil {
		return nil, err
	}
	if err := s.allow(ctx, limitCheck{s.cfg.IPStartLimiter, ip, "logins per IP"}); err != nil {
		return nil, err
	}
	wa, err := s.relyingParty(p)
	if err != nil {
		return nil, err
	}
	opts, sd, err := wa.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		return nil, err
	}
	id, err := s.saveCeremony(ctx, p.ID, ceremonyLogin, "", "", deviceID, sd)
	if err != nil {
		return nil, err
	}
	return &Ceremony{ChallengeID: id, Options: opts}, nil
}

// PasskeyLoginRequest finishes a passkey login.
type PasskeyLoginRequest struct {
	Project                              *project.Project
	DeviceID, ChallengeID, IP, UserAgent string
	Credential                           json.RawMessage
}

// FinishPasskeyLogin checks a passkey's assertion for a login begun on
// DeviceID: the challenge, origin, RP ID, user verification and signature
// (the library), the credential and its user handle naming one user of this
// project, and a signature counter that went forward (else the passkey is
// flagged as cloned and refused from then on). It opens a session with the
// second factor and a passkey fresh, and the device counts as approved and
// as having passed the factor. Errors: invalid (deviceId,
// MsgCeremonyExpired), unauthorized (MsgPasskeyRefused), forbidden
// (MsgPasskeyCloned), rate_limited (MsgFactorLocked).
func (s *Service) FinishPasskeyLogin(ctx context.Context, r PasskeyLoginRequest) (*Session, error) {
	if err := validDeviceID(r.DeviceID); err != nil {
		return nil, err
	}
	if len(r.Credential) == 0 || len(r.Credential) > maxCredentialJSON {
		return nil, apperr.Fieldf(apperr.Invalid, "credential", "credential must be the authenticator's answer, at most %d bytes", maxCredentialJSON)
	}
	if err := s.allowFactor(ctx, limitCheck{s.cfg.FactorIPLimiter, r.IP, "second-factor tries per IP"}); err != nil {
		return nil, err
	}
	wa, err := s.relyingParty(r.Project)
	if err != nil {
		return nil, err
	}
	sd, _, err := s.takeCeremony(ctx, r.Project.ID, r.ChallengeID, ceremonyLogin, "", r.DeviceID)
	if err != nil {
		return nil, err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(r.Credential)
	if err != nil {
		return nil, s.refused(ctx, "parse assertion", err)
	}
	var userID, email string
	var stored *webauthn.Credential
	handler := func(rawID, userHandle []byte) (webauthn.User, error) {
		err := s.db.QueryRow(ctx, `SELECT u.id, u.email FROM auth_passkeys k JOIN auth_users u ON u.id = k.user_id WHERE k.credential_id = ? AND u.project_id = ?`,
			rawID, r.Project.ID).Scan(&userID, &email)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(userHandle, []byte(userID)) {
			return nil, errWrongHandle
		}
		u, err := s.loadUser(ctx, userID, publicEmail(email))
		if err != nil {
			return nil, err
		}
		for i := range u.creds {
			if bytes.Equal(u.creds[i].ID, rawID) {
				stored = &u.creds[i]
			}
		}
		return u, nil
	}
	cred, err := wa.ValidateDiscoverableLogin(handler, *sd, parsed)
	if err != nil {
		return nil, s.refused(ctx, "login", err)
	}
	if err := s.checkCounter(ctx, userID, stored, cred, parsed); err != nil {
		return nil, err
	}
	now := s.now()
	var sess *Session
	err = s.db.InTx(ctx, func(tx *sqlTx) error {
		q := querier{db: s.db, tx: tx}
		if err := passDevice(ctx, q, userID, r.DeviceID, now); err != nil {
			return err
		}
		var err error
		sess, err = s.createSession(ctx, q, newSession{userID: userID, email: publicEmail(email), projectID: r.Project.ID, deviceID: r.DeviceID, userAgent: r.UserAgent,
			verifiedAt: now, factorAt: now, passkeyAt: now})
		return err
	})
	return sess, err
}

var errWrongHandle = apperr.Fieldf(apperr.Unauthorized, "credential", "the user handle does not match the credential")

// checkCounter refuses a passkey flagged as cloned, and one whose
// signature counter did not go forward (both zero: an authenticator without
// a counter, which passkey providers that sync often are), flagging it. The
// new counter is stored with a conditional UPDATE, so of two logins with
// one assertion counter value only one passes.
func (s *Service) checkCounter(ctx context.Context, userID string, stored, cred *webauthn.Credential, parsed *protocol.ParsedCredentialAssertionData) error {
	if stored == nil || cred == nil {
		return s.refused(ctx, "counter", errWrongHandle)
	}
	if stored.Authenticator.CloneWarning {
		return apperr.Fieldf(apperr.Forbidden, "credential", MsgPasskeyCloned)
	}
	old, got := int64(stored.Authenticator.SignCount), int64(parsed.Response.AuthenticatorData.Counter)
	if cred.Authenticator.CloneWarning || (old != 0 || got != 0) && got <= old {
		s.cfg.Logger.WarnContext(ctx, "auth: passkey signature counter went back; passkey disabled", "user_id", userID, "stored", old, "got", got)
		if _, err := s.db.Exec(ctx, `UPDATE auth_passkeys SET clone_warning = 1 WHERE credential_id = ?`, stored.ID); err != nil {
			return err
		}
		return apperr.Fieldf(apperr.Forbidden, "credential", MsgPasskeyCloned)
	}
	res, err := s.db.Exec(ctx, `UPDATE auth_passkeys SET sign_count = ?, last_used_at = ?, flags = ? WHERE credential_id = ? AND clone_warning = 0 AND (sign_count < ? OR sign_count = 0 AND ? = 0)`,
		got, ms(s.now()), int(cred.Flags.ProtocolValue()), stored.ID, got, got)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return apperr.Fieldf(apperr.Forbidden, "credential", MsgPasskeyCloned)
	}
	return nil
}

// BeginPasskeyAssertion starts a signed-in user's step-up with one of the
// user's passkeys. Errors: forbidden (another device), not_found
// (MsgNoPasskey), unavailable.
func (s *Service) BeginPasskeyAssertion(ctx context.Context, p *project.Project, a *Auth, deviceID string) (*Ceremony, error) {
	if err := boundTo(a, deviceID); err != nil {
		return nil, err
	}
	wa, err := s.relyingParty(p)
	if err != nil {
		return nil, err
	}
	u, err := s.loadUser(ctx, a.UserID, a.Email)
	if err != nil {
		return nil, err
	}
	if len(u.creds) == 0 {
		return nil, apperr.Errorf(apperr.NotFound, MsgNoPasskey)
	}
	opts, sd, err := wa.BeginLogin(u, webauthn.WithUserVerification(protocol.VerificationRequired))
	if err != nil {
		return nil, err
	}
	id, err := s.saveCeremony(ctx, p.ID, ceremonyAssert, a.UserID, a.SessionID, deviceID, sd)
	if err != nil {
		return nil, err
	}
	return &Ceremony{ChallengeID: id, Options: opts}, nil
}

// FinishPasskeyAssertion checks the step-up's assertion as a login's (one
// of the user's passkeys, counter forward) and records on the session that
// it proved a passkey now. Errors: as FinishPasskeyLogin.
func (s *Service) FinishPasskeyAssertion(ctx context.Context, p *project.Project, a *Auth, deviceID, challengeID, ip string, credential json.RawMessage) (time.Time, error) {
	if err := boundTo(a, deviceID); err != nil {
		return time.Time{}, err
	}
	if len(credential) == 0 || len(credential) > maxCredentialJSON {
		return time.Time{}, apperr.Fieldf(apperr.Invalid, "credential", "credential must be the authenticator's answer, at most %d bytes", maxCredentialJSON)
	}
	if err := s.allowFactor(ctx, limitCheck{s.cfg.FactorIPLimiter, ip, "second-factor tries per IP"}, limitCheck{s.cfg.FactorUserLimiter, p.ID + "/" + a.UserID, "second-factor tries for this account"}); err != nil {
		return time.Time{}, err
	}
	wa, err := s.relyingParty(p)
	if err != nil {
		return time.Time{}, err
	}
	sd, _, err := s.takeCeremony(ctx, p.ID, challengeID, ceremonyAssert, a.SessionID, deviceID)
	if err != nil {
		return time.Time{}, err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(credential)
	if err != nil {
		return time.Time{}, s.refused(ctx, "parse assertion", err)
	}
	u, err := s.loadUser(ctx, a.UserID, a.Email)
	if err != nil {
		return time.Time{}, err
	}
	cred, err := wa.ValidateLogin(u, *sd, parsed)
	if err != nil {
		return time.Time{}, s.refused(ctx, "step-up", err)
	}
	var stored *webauthn.Credential
	for i := range u.creds {
		if bytes.Equal(u.creds[i].ID, parsed.RawID) {
			stored = &u.creds[i]
		}
	}
	if err := s.checkCounter(ctx, a.UserID, stored, cred, parsed); err != nil {
		return time.Time{}, err
	}
	return s.markFactor(ctx, a, true)
}

// ListPasskeys lists the session user's passkeys, oldest first.
func (s *Service) ListPasskeys(ctx context.Context, a *Auth) ([]PasskeyInfo, error) {
	rows, err := s.db.Query(ctx, `SELECT id, name, created_at, last_used_at, flags, clone_warning FROM auth_passkeys WHERE user_id = ? ORDER BY created_at, id`, a.UserID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []PasskeyInfo{}
	for rows.Next() {
		var pk PasskeyInfo
		var created int64
		var used *int64
		var flags, clone int
		if err := rows.Scan(&pk.ID, &pk.Name, &created, &used, &flags, &clone); err != nil {
			return nil, err
		}
		pk.CreatedAt = time.UnixMilli(created).UTC()
		if used != nil {
			t := time.UnixMilli(*used).UTC()
			pk.LastUsedAt = &t
		}
		pk.BackedUp = webauthn.NewCredentialFlags(protocol.AuthenticatorFlags(flags)).BackupState
		pk.CloneWarning = clone != 0
		out = append(out, pk)
	}
	return out, rows.Err()
}

// RemovePasskey removes one of the user's passkeys. It needs the second
// factor proved within FactorWindow, and refuses the passkey whose PRF
// keys a passkey-mode recovery share (removing it would make recovery
// impossible). Errors: forbidden (another device, MsgFactorRequired),
// not_found, conflict (MsgPasskeyKeysRecovery).
func (s *Service) RemovePasskey(ctx context.Context, a *Auth, deviceID, id string) error {
	if err := boundTo(a, deviceID); err != nil {
		return err
	}
	if err := s.requireFactor(ctx, a); err != nil {
		return err
	}
	var mode, kdf string
	err := s.db.QueryRow(ctx, `SELECT recovery_mode, recovery_kdf FROM auth_shares WHERE user_id = ?`, a.UserID).Scan(&mode, &kdf)
	if err != nil && !store.IsNoRows(err) {
		return err
	}
	if mode == RecoveryPasskey {
		var k struct {
			CredentialID string `json:"credentialId"`
		}
		json.Unmarshal([]byte(kdf), &k)
		if k.CredentialID == id {
			return apperr.Fieldf(apperr.Conflict, "id", MsgPasskeyKeysRecovery)
		}
	}
	res, err := s.db.Exec(ctx, `DELETE FROM auth_passkeys WHERE id = ? AND user_id = ?`, id, a.UserID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return apperr.Fieldf(apperr.NotFound, "id", "No such passkey")
	}
	return nil
}
