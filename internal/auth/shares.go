package auth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/store"
)

// Recovery modes.
const (
	// RecoveryOperator: the recovery share is encrypted under the operator's
	// recovery key; latchd can decrypt it (operator-assisted recovery).
	RecoveryOperator = "operator"
	// RecoveryPassword: the frame encrypted the recovery share under a key
	// derived from the user's password; latchd stores the ciphertext only.
	RecoveryPassword = "password"
	// RecoveryPasskey: the frame encrypted the recovery share under a key
	// derived from a passkey's PRF output; latchd stores the ciphertext
	// (sealed once more under the key-encryption key) and never sees the
	// PRF output, so neither it nor its operator can open the share.
	RecoveryPasskey = "passkey"
)

// recoveryRing is the keyring that seals a mode's recovery record: the
// operator's recovery key for operator mode; for the modes whose share the
// frame already encrypted, the key-encryption key.
func (s *Service) recoveryRing(mode string) *Keyring {
	return recoveryRing(mode, s.cfg.Keys, s.cfg.RecoveryKeys)
}

func recoveryRing(mode string, keys, recoveryKeys *Keyring) *Keyring {
	if mode == RecoveryOperator {
		return recoveryKeys
	}
	return keys
}

// Size limits of stored shares (decoded bytes).
const (
	maxShareBytes      = 1024
	maxCiphertextBytes = 4096
	maxKDFBytes        = 1024
)

// Recovery is the recovery share as stored and fetched.
type Recovery struct {
	Mode       string          `json:"mode"`
	Share      string          `json:"share,omitempty"`      // operator: base64
	Ciphertext string          `json:"ciphertext,omitempty"` // password: base64
	KDF        json.RawMessage `json:"kdf,omitempty"`        // password: the frame's KDF parameters
}

// Shares are a wallet's server-side shares.
type Shares struct {
	AuthShare string    `json:"authShare"`
	Recovery  *Recovery `json:"recovery,omitempty"`
}

// StoreRequest stores a wallet's shares.
type StoreRequest struct {
	DeviceID  string   `json:"deviceId"`
	AuthShare string   `json:"authShare"`
	Recovery  Recovery `json:"recovery"`
	Replace   bool     `json:"replace"`
}

// aad binds a ciphertext to its user and field, so that ciphertexts moved
// between rows or fields do not open.
func aad(userID, field string) string { return "latch-auth-share\x00" + userID + "\x00" + field }

// boundTo checks that the session was opened on deviceID.
func boundTo(a *Auth, deviceID string) error {
	if err := validDeviceID(deviceID); err != nil {
		return err
	}
	if !equalStrings(a.DeviceID, deviceID) {
		return apperr.Fieldf(apperr.Forbidden, "deviceId", "This session belongs to another device")
	}
	return nil
}

func decodeField(field, v string, max int) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil || len(b) == 0 {
		return nil, apperr.Fieldf(apperr.Invalid, field, "%s must be non-empty standard base64", field)
	}
	if len(b) > max {
		return nil, apperr.Fieldf(apperr.Invalid, field, "%s is longer than %d bytes", field, max)
	}
	return b, nil
}

// StoreShares stores the auth share (sealed under the key-encryption key)
// and the recovery share (operator mode: sealed under the recovery key;
// password mode: the frame's ciphertext sealed once more under the
// key-encryption key, with its KDF parameters). Needs a session bound to
// r.DeviceID; Replace (overwriting existing shares) also needs a fresh
// session. Errors: invalid, forbidden, conflict (shares exist, no Replace).
func (s *Service) StoreShares(ctx context.Context, a *Auth, r StoreRequest) error {
	if err := boundTo(a, r.DeviceID); err != nil {
		return err
	}
	authShare, err := decodeField("authShare", r.AuthShare, maxShareBytes)
	if err != nil {
		return err
	}
	var recKeyID, kdf string
	var recSealed []byte
	switch r.Recovery.Mode {
	case RecoveryOperator:
		share, err := decodeField("recovery.share", r.Recovery.Share, maxShareBytes)
		if err != nil {
			return err
		}
		recKeyID, recSealed = s.cfg.RecoveryKeys.Seal(aad(a.UserID, "recovery"), share)
	case RecoveryPassword, RecoveryPasskey:
		ct, k, err := s.frameRecovery(ctx, a, r.Recovery)
		if err != nil {
			return err
		}
		kdf = k
		recKeyID, recSealed = s.cfg.Keys.Seal(aad(a.UserID, "recovery"), ct)
	default:
		return apperr.Fieldf(apperr.Invalid, "recovery.mode", "recovery.mode must be %q, %q or %q", RecoveryOperator, RecoveryPassword, RecoveryPasskey)
	}
	if r.Replace && !a.Fresh(s.now()) {
		return apperr.Errorf(apperr.Forbidden, MsgNotFresh)
	}
	keyID, authSealed := s.cfg.Keys.Seal(aad(a.UserID, "auth"), authShare)
	now := ms(s.now())
	if r.Replace {
		_, err = s.db.Exec(ctx, `INSERT INTO auth_shares (user_id, key_id, auth_share, recovery_mode, recovery_key_id, recovery_share, recovery_kdf, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (user_id) DO UPDATE SET key_id = excluded.key_id, auth_share = excluded.auth_share, recovery_mode = excluded.recovery_mode,
				recovery_key_id = excluded.recovery_key_id, recovery_share = excluded.recovery_share, recovery_kdf = excluded.recovery_kdf, updated_at = excluded.updated_at`,
			a.UserID, keyID, authSealed, r.Recovery.Mode, recKeyID, recSealed, kdf, now, now)
		return err
	}
	_, err = s.db.Exec(ctx, `INSERT INTO auth_shares (user_id, key_id, auth_share, recovery_mode, recovery_key_id, recovery_share, recovery_kdf, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, a.UserID, keyID, authSealed, r.Recovery.Mode, recKeyID, recSealed, kdf, now, now)
	if store.IsUniqueViolation(err) {
		return apperr.Errorf(apperr.Conflict, "Key shares are already stored")
	}
	return err
}

// FetchShares returns the auth share to a session bound to deviceID and,
// when includeRecovery, the recovery share to such a session that is also
// fresh and, for a user with a second factor, proved it within FactorWindow
// (operator mode: decrypted; password and passkey modes: the frame's
// ciphertext and KDF parameters; passkey mode only to a session that made a
// passkey assertion within FactorWindow, a passkey login or a step-up).
// Errors: forbidden (another device; MsgNotFresh, MsgFactorRequired,
// MsgPasskeyRequired),
// not_found (nothing stored yet).
func (s *Service) FetchShares(ctx context.Context, a *Auth, deviceID string, includeRecovery bool) (*Shares, error) {
	if err := boundTo(a, deviceID); err != nil {
		return nil, err
	}
	if includeRecovery && !a.Fresh(s.now()) {
		return nil, apperr.Errorf(apperr.Forbidden, MsgNotFresh)
	}
	if includeRecovery {
		if err := s.requireFactor(ctx, a); err != nil {
			return nil, err
		}
	}
	var keyID, mode, recKeyID, kdf string
	var authSealed, recSealed []byte
	err := s.db.QueryRow(ctx, `SELECT key_id, auth_share, recovery_mode, recovery_key_id, recovery_share, recovery_kdf FROM auth_shares WHERE user_id = ?`, a.UserID).
		Scan(&keyID, &authSealed, &mode, &recKeyID, &recSealed, &kdf)
	if store.IsNoRows(err) {
		return nil, apperr.Errorf(apperr.NotFound, "No key shares stored")
	}
	if err != nil {
		return nil, err
	}
	share, err := s.cfg.Keys.Open(keyID, aad(a.UserID, "auth"), authSealed)
	if err != nil {
		return nil, fmt.Errorf("open auth share of user %s: %w", a.UserID, err)
	}
	out := &Shares{AuthShare: base64.StdEncoding.EncodeToString(share)}
	if !includeRecovery {
		return out, nil
	}
	if mode == RecoveryPasskey && !a.PasskeyFresh(s.now()) {
		return nil, apperr.Fieldf(apperr.Forbidden, "secondFactor", MsgPasskeyRequired)
	}
	rec, err := s.recoveryRing(mode).Open(recKeyID, aad(a.UserID, "recovery"), recSealed)
	if err != nil {
		return nil, fmt.Errorf("open recovery share of user %s: %w", a.UserID, err)
	}
	out.Recovery = &Recovery{Mode: mode}
	if mode != RecoveryOperator {
		out.Recovery.Ciphertext, out.Recovery.KDF = base64.StdEncoding.EncodeToString(rec), json.RawMessage(kdf)
	} else {
		out.Recovery.Share = base64.StdEncoding.EncodeToString(rec)
	}
	return out, nil
}

// RotateKeys re-seals every stored share whose key is not the current one
// of its ring (auth shares and password- and passkey-mode ciphertexts: the
// key-encryption key; operator-mode recovery shares: the recovery key). It
// returns how many records it re-sealed. A record under a key missing from
// its ring is an error: rotation must keep the old key listed until it ran.
func (s *Service) RotateKeys(ctx context.Context) (int, error) {
	return RotateKeys(ctx, s.db, s.cfg.Keys, s.cfg.RecoveryKeys)
}

// RotateKeys is Service.RotateKeys on a database, for `latchd auth
// rotate-key`, which needs no mail or secret.
func RotateKeys(ctx context.Context, db *store.DB, keys, recoveryKeys *Keyring) (int, error) {
	rows, err := db.Query(ctx, `SELECT user_id, key_id, auth_share, recovery_mode, recovery_key_id, recovery_share FROM auth_shares
		WHERE key_id <> ? OR (recovery_mode <> ? AND recovery_key_id <> ?) OR (recovery_mode = ? AND recovery_key_id <> ?)`,
		keys.Current(), RecoveryOperator, keys.Current(), RecoveryOperator, recoveryKeys.Current())
	if err != nil {
		return 0, err
	}
	type rec struct {
		user, keyID, mode, recKeyID string
		auth, recovery              []byte
	}
	var stale []rec
	for rows.Next() {
		var r rec
		if err := rows.Scan(&r.user, &r.keyID, &r.auth, &r.mode, &r.recKeyID, &r.recovery); err != nil {
			rows.Close()
			return 0, err
		}
		stale = append(stale, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	n := 0
	for _, r := range stale {
		authPlain, err := keys.Open(r.keyID, aad(r.user, "auth"), r.auth)
		if err != nil {
			return n, fmt.Errorf("user %s auth share: %w", r.user, err)
		}
		ring := recoveryRing(r.mode, keys, recoveryKeys)
		recPlain, err := ring.Open(r.recKeyID, aad(r.user, "recovery"), r.recovery)
		if err != nil {
			return n, fmt.Errorf("user %s recovery share: %w", r.user, err)
		}
		keyID, authSealed := keys.Seal(aad(r.user, "auth"), authPlain)
		recKeyID, recSealed := ring.Seal(aad(r.user, "recovery"), recPlain)
		// Only if nobody changed the record meanwhile (a store with replace).
		res, err := db.Exec(ctx, `UPDATE auth_shares SET key_id = ?, auth_share = ?, recovery_key_id = ?, recovery_share = ?
			WHERE user_id = ? AND key_id = ? AND recovery_key_id = ? AND auth_share = ?`,
			keyID, authSealed, recKeyID, recSealed, r.user, r.keyID, r.recKeyID, r.auth)
		if err != nil {
			return n, err
		}
		if c, _ := res.RowsAffected(); c == 1 {
			n++
		}
	}
	m, err := rotateTOTP(ctx, db, keys)
	return n + m, err
}

// rotateTOTP re-seals the TOTP secrets not under the current key-encryption key.
func rotateTOTP(ctx context.Context, db *store.DB, keys *Keyring) (int, error) {
	rows, err := db.Query(ctx, `SELECT user_id, key_id, secret FROM auth_totp WHERE key_id <> ?`, keys.Current())
	if err != nil {
		return 0, err
	}
	type rec struct {
		user, keyID string
		secret      []byte
	}
	var stale []rec
	for rows.Next() {
		var r rec
		if err := rows.Scan(&r.user, &r.keyID, &r.secret); err != nil {
			rows.Close()
			return 0, err
		}
		stale = append(stale, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	n := 0
	for _, r := range stale {
		plain, err := keys.Open(r.keyID, aad(r.user, "totp"), r.secret)
		if err != nil {
			return n, fmt.Errorf("user %s TOTP secret: %w", r.user, err)
		}
		keyID, sealed := keys.Seal(aad(r.user, "totp"), plain)
		res, err := db.Exec(ctx, `UPDATE auth_totp SET key_id = ?, secret = ? WHERE user_id = ? AND key_id = ? AND secret = ?`, keyID, sealed, r.user, r.keyID, r.secret)
		if err != nil {
			return n, err
		}
		if c, _ := res.RowsAffected(); c == 1 {
			n++
		}
	}
	return n, nil
}
