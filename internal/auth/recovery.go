package auth

import (
	"context"
	"encoding/base64"
	"encoding/json"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/store"
)

// MsgPasskeyRequired: passkey-mode recovery needs a passkey assertion made
// within FactorWindow (a passkey login or a step-up).
const MsgPasskeyRequired = "A passkey is required"

// frameRecovery checks a recovery share the frame encrypted itself
// (password or passkey mode): its ciphertext and its KDF parameters, a JSON
// object. Passkey mode also needs the session to have made a passkey
// assertion within FactorWindow, and kdf.credentialId to name one of the
// user's passkeys (base64url), the one whose PRF output keys the share.
func (s *Service) frameRecovery(ctx context.Context, a *Auth, r Recovery) (ct []byte, kdf string, err error) {
	if r.Mode == RecoveryPasskey && !a.PasskeyFresh(s.now()) {
		return nil, "", apperr.Fieldf(apperr.Forbidden, "secondFactor", MsgPasskeyRequired)
	}
	ct, err = decodeField("recovery.ciphertext", r.Ciphertext, maxCiphertextBytes)
	if err != nil {
		return nil, "", err
	}
	var obj map[string]any
	if len(r.KDF) == 0 || len(r.KDF) > maxKDFBytes || json.Unmarshal(r.KDF, &obj) != nil || obj == nil {
		return nil, "", apperr.Fieldf(apperr.Invalid, "recovery.kdf", "recovery.kdf must be a JSON object of at most %d bytes", maxKDFBytes)
	}
	if r.Mode == RecoveryPasskey {
		id, _ := obj["credentialId"].(string)
		raw, derr := base64.RawURLEncoding.DecodeString(id)
		if id == "" || derr != nil {
			return nil, "", apperr.Fieldf(apperr.Invalid, "recovery.kdf.credentialId", "recovery.kdf.credentialId must name the passkey (its id, base64url)")
		}
		var one int
		err := s.db.QueryRow(ctx, `SELECT 1 FROM auth_passkeys WHERE credential_id = ? AND user_id = ?`, raw, a.UserID).Scan(&one)
		if store.IsNoRows(err) {
			return nil, "", apperr.Fieldf(apperr.Invalid, "recovery.kdf.credentialId", "recovery.kdf.credentialId is not one of this account's passkeys")
		}
		if err != nil {
			return nil, "", err
		}
	}
	return ct, string(r.KDF), nil
}

// PasskeyRecoveryRequest switches stored shares to passkey recovery.
type PasskeyRecoveryRequest struct {
	DeviceID   string          `json:"deviceId"`
	Ciphertext string          `json:"ciphertext"`
	KDF        json.RawMessage `json:"kdf"`
}

// SetPasskeyRecovery replaces the user's recovery share with one the frame
// encrypted under a key derived from a passkey's PRF output. The operator-
// or password-mode share it replaces is gone: from then on latchd holds one
// usable share (the auth share) and cannot rebuild the wallet. It needs a
// session bound to the device that made a passkey assertion within
// FactorWindow. Errors: invalid, forbidden (another device,
// MsgPasskeyRequired), not_found (no shares stored yet: store them with
// PUT /auth/v1/shares and mode passkey instead).
func (s *Service) SetPasskeyRecovery(ctx context.Context, a *Auth, r PasskeyRecoveryRequest) error {
	if err := boundTo(a, r.DeviceID); err != nil {
		return err
	}
	ct, kdf, err := s.frameRecovery(ctx, a, Recovery{Mode: RecoveryPasskey, Ciphertext: r.Ciphertext, KDF: r.KDF})
	if err != nil {
		return err
	}
	keyID, sealed := s.cfg.Keys.Seal(aad(a.UserID, "recovery"), ct)
	res, err := s.db.Exec(ctx, `UPDATE auth_shares SET recovery_mode = ?, recovery_key_id = ?, recovery_share = ?, recovery_kdf = ?, updated_at = ? WHERE user_id = ?`,
		RecoveryPasskey, keyID, sealed, kdf, ms(s.now()), a.UserID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return apperr.Errorf(apperr.NotFound, "No key shares stored")
	}
	return nil
}
