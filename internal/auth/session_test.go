package auth_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

func TestService_Sessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t.Run("Rotation", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			s1 := e.login("a@example.com", dev)
			s2, err := e.svc.Refresh(ctx, e.p.ID, s1.RefreshToken, dev)
			if err != nil {
				t.Fatal(err)
			}
			if s2.SessionID != s1.SessionID || s2.AccessToken == s1.AccessToken || s2.RefreshToken == s1.RefreshToken {
				t.Fatalf("%+v after %+v", s2, s1)
			}
			if _, err := e.svc.Authenticate(ctx, e.p.ID, s1.AccessToken); apperr.Code(err) != apperr.Unauthorized {
				t.Fatalf("old access token: %v", err)
			}
			if a := e.authFor(s2); a.Email != "a@example.com" || a.DeviceID != dev {
				t.Fatalf("%+v", a)
			}
			// The refresh token is bound to its device and project.
			_, err = e.svc.Refresh(ctx, e.p.ID, s2.RefreshToken, newDevice())
			wantCode(t, err, apperr.Unauthorized, auth.MsgSessionExpired)
			if _, err := e.svc.Refresh(ctx, e.p.ID, s2.RefreshToken, dev); err != nil {
				t.Fatalf("after a refused foreign device: %v", err)
			}
		})
		t.Run("ReuseRevokesFamily", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			s1 := e.login("a@example.com", dev)
			s2, err := e.svc.Refresh(ctx, e.p.ID, s1.RefreshToken, dev)
			if err != nil {
				t.Fatal(err)
			}
			// s1's refresh token again (a thief's copy): the whole session ends.
			_, err = e.svc.Refresh(ctx, e.p.ID, s1.RefreshToken, dev)
			wantCode(t, err, apperr.Unauthorized, auth.MsgSessionExpired)
			if _, err := e.svc.Authenticate(ctx, e.p.ID, s2.AccessToken); apperr.Code(err) != apperr.Unauthorized {
				t.Fatalf("the newest access token survived: %v", err)
			}
			if _, err := e.svc.Refresh(ctx, e.p.ID, s2.RefreshToken, dev); apperr.Code(err) != apperr.Unauthorized {
				t.Fatalf("the newest refresh token survived: %v", err)
			}
		})
		t.Run("Expiry", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			e.clock.Add(auth.AccessTTL)
			if _, err := e.svc.Authenticate(ctx, e.p.ID, s.AccessToken); apperr.Code(err) != apperr.Unauthorized {
				t.Fatalf("expired access token: %v", err)
			}
			s2, err := e.svc.Refresh(ctx, e.p.ID, s.RefreshToken, dev)
			if err != nil {
				t.Fatal(err)
			}
			e.clock.Add(auth.RefreshTTL)
			if _, err := e.svc.Refresh(ctx, e.p.ID, s2.RefreshToken, dev); apperr.Code(err) != apperr.Unauthorized {
				t.Fatalf("expired refresh token: %v", err)
			}
		})
		t.Run("ListAndRevoke", func(t *testing.T) {
			e := newEnv(t, db, nil)
			d1, d2 := newDevice(), newDevice()
			s1 := e.login("a@example.com", d1)
			e.clock.Add(time.Minute)
			s2 := e.login("a@example.com", d2)
			other := e.login("b@example.com", newDevice())
			a1 := e.authFor(s1)
			list, err := e.svc.ListSessions(ctx, a1)
			if err != nil || len(list) != 2 || list[0].ID != s2.SessionID || list[1].ID != s1.SessionID || !list[1].Current || list[0].Current {
				t.Fatalf("%+v %v", list, err)
			}
			if err := e.svc.RevokeSession(ctx, a1, other.SessionID); apperr.Code(err) != apperr.NotFound {
				t.Fatalf("revoked another user's session: %v", err)
			}
			if err := e.svc.RevokeSession(ctx, a1, s2.SessionID); err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.Authenticate(ctx, e.p.ID, s2.AccessToken); apperr.Code(err) != apperr.Unauthorized {
				t.Fatalf("revoked session works: %v", err)
			}
			if list, _ := e.svc.ListSessions(ctx, a1); len(list) != 1 {
				t.Fatalf("%+v", list)
			}
			if err := e.svc.RevokeSession(ctx, a1, "current"); err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.Authenticate(ctx, e.p.ID, s1.AccessToken); apperr.Code(err) != apperr.Unauthorized {
				t.Fatalf("signed-out session works: %v", err)
			}
			e.authFor(other)
		})
		t.Run("TokensStoredHashed", func(t *testing.T) {
			e := newEnv(t, db, nil)
			s := e.login("a@example.com", newDevice())
			var access []byte
			db.QueryRow(ctx, `SELECT access_hash FROM auth_sessions WHERE id = ?`, s.SessionID).Scan(&access)
			if len(access) != 32 || bytes.Contains(access, []byte(s.AccessToken)) {
				t.Fatalf("%x", access)
			}
		})
	})
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestService_Shares(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t.Run("Operator", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			a := e.authFor(e.login("a@example.com", dev))
			req := auth.StoreRequest{DeviceID: dev, AuthShare: b64("auth share"), Recovery: auth.Recovery{Mode: auth.RecoveryOperator, Share: b64("recovery share")}}
			if err := e.svc.StoreShares(ctx, a, req); err != nil {
				t.Fatal(err)
			}
			// Encrypted at rest, with its key id.
			var keyID, recKeyID string
			var authCT, recCT []byte
			db.QueryRow(ctx, `SELECT key_id, auth_share, recovery_key_id, recovery_share FROM auth_shares`).Scan(&keyID, &authCT, &recKeyID, &recCT)
			if keyID != "k1" || recKeyID != "r1" || bytes.Contains(authCT, []byte("auth share")) || bytes.Contains(recCT, []byte("recovery share")) || len(authCT) != 12+len("auth share")+16 {
				t.Fatalf("stored %s %x %s %x", keyID, authCT, recKeyID, recCT)
			}
			got, err := e.svc.FetchShares(ctx, a, dev, false)
			if err != nil || got.AuthShare != req.AuthShare || got.Recovery != nil {
				t.Fatalf("%+v %v", got, err)
			}
			got, err = e.svc.FetchShares(ctx, a, dev, true)
			if err != nil || got.Recovery == nil || got.Recovery.Mode != auth.RecoveryOperator || got.Recovery.Share != req.Recovery.Share {
				t.Fatalf("%+v %v", got, err)
			}
			wantCode(t, e.svc.StoreShares(ctx, a, req), apperr.Conflict, "")
			_, err = e.svc.FetchShares(ctx, a, newDevice(), false)
			wantCode(t, err, apperr.Forbidden, "")
		})
		t.Run("Password", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			a := e.authFor(e.login("a@example.com", dev))
			kdf := json.RawMessage(`{"name":"argon2id","salt":"c2FsdA==","m":65536,"t":3,"p":1}`)
			req := auth.StoreRequest{DeviceID: dev, AuthShare: b64("auth"), Recovery: auth.Recovery{Mode: auth.RecoveryPassword, Ciphertext: b64("opaque ciphertext"), KDF: kdf}}
			if err := e.svc.StoreShares(ctx, a, req); err != nil {
				t.Fatal(err)
			}
			got, err := e.svc.FetchShares(ctx, a, dev, true)
			if err != nil || got.Recovery.Mode != auth.RecoveryPassword || got.Recovery.Ciphertext != req.Recovery.Ciphertext || string(got.Recovery.KDF) != string(kdf) || got.Recovery.Share != "" {
				t.Fatalf("%+v %v", got, err)
			}
		})
		t.Run("ErrInput", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			a := e.authFor(e.login("a@example.com", dev))
			for name, req := range map[string]auth.StoreRequest{
				"mode":     {DeviceID: dev, AuthShare: b64("x"), Recovery: auth.Recovery{Mode: "cloud", Share: b64("x")}},
				"base64":   {DeviceID: dev, AuthShare: "%%%", Recovery: auth.Recovery{Mode: "operator", Share: b64("x")}},
				"empty":    {DeviceID: dev, AuthShare: "", Recovery: auth.Recovery{Mode: "operator", Share: b64("x")}},
				"large":    {DeviceID: dev, AuthShare: b64(string(make([]byte, 1025))), Recovery: auth.Recovery{Mode: "operator", Share: b64("x")}},
				"kdf":      {DeviceID: dev, AuthShare: b64("x"), Recovery: auth.Recovery{Mode: "password", Ciphertext: b64("x"), KDF: json.RawMessage(`[1]`)}},
				"nokdf":    {DeviceID: dev, AuthShare: b64("x"), Recovery: auth.Recovery{Mode: "password", Ciphertext: b64("x")}},
				"deviceId": {DeviceID: "bad", AuthShare: b64("x"), Recovery: auth.Recovery{Mode: "operator", Share: b64("x")}},
			} {
				if err := e.svc.StoreShares(ctx, a, req); apperr.Code(err) != apperr.Invalid {
					t.Errorf("%s: %v", name, err)
				}
			}
			if _, err := e.svc.FetchShares(ctx, a, dev, false); apperr.Code(err) != apperr.NotFound {
				t.Fatalf("nothing stored: %v", err)
			}
		})
		t.Run("Freshness", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			req := auth.StoreRequest{DeviceID: dev, AuthShare: b64("a"), Recovery: auth.Recovery{Mode: auth.RecoveryOperator, Share: b64("r")}}
			if err := e.svc.StoreShares(ctx, e.authFor(s), req); err != nil {
				t.Fatal(err)
			}
			e.clock.Add(auth.FreshWindow + time.Second)
			s, err := e.svc.Refresh(ctx, e.p.ID, s.RefreshToken, dev)
			if err != nil {
				t.Fatal(err)
			}
			a := e.authFor(s)
			// Still the auth share (a session bound to this device), but no
			// recovery share and no overwrite without a fresh verify.
			if _, err := e.svc.FetchShares(ctx, a, dev, false); err != nil {
				t.Fatal(err)
			}
			_, err = e.svc.FetchShares(ctx, a, dev, true)
			wantCode(t, err, apperr.Forbidden, auth.MsgNotFresh)
			req.Replace, req.AuthShare = true, b64("b")
			wantCode(t, e.svc.StoreShares(ctx, a, req), apperr.Forbidden, auth.MsgNotFresh)
			e.clock.Add(auth.ResendCooldown)
			e.mustStart("a@example.com", dev, auth.ActionVerifyOTP)
			fresh, err := e.verify("a@example.com", dev, e.last("a@example.com").Code)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.svc.StoreShares(ctx, e.authFor(fresh), req); err != nil {
				t.Fatal(err)
			}
			if got, _ := e.svc.FetchShares(ctx, e.authFor(fresh), dev, true); got.AuthShare != b64("b") {
				t.Fatalf("%+v", got)
			}
		})
		t.Run("BoundToUser", func(t *testing.T) {
			// A ciphertext moved to another user's row does not open (AAD).
			e := newEnv(t, db, nil)
			d1, d2 := newDevice(), newDevice()
			a1, a2 := e.authFor(e.login("a@example.com", d1)), e.authFor(e.login("b@example.com", d2))
			e.svc.StoreShares(ctx, a1, auth.StoreRequest{DeviceID: d1, AuthShare: b64("alice"), Recovery: auth.Recovery{Mode: "operator", Share: b64("r")}})
			e.svc.StoreShares(ctx, a2, auth.StoreRequest{DeviceID: d2, AuthShare: b64("bob"), Recovery: auth.Recovery{Mode: "operator", Share: b64("r")}})
			if _, err := db.Exec(ctx, `UPDATE auth_shares SET auth_share = (SELECT auth_share FROM auth_shares WHERE user_id = ?) WHERE user_id = ?`, a1.UserID, a2.UserID); err != nil {
				t.Fatal(err)
			}
			if _, err := e.svc.FetchShares(ctx, a2, d2, false); err == nil {
				t.Fatal("bob's row opened alice's ciphertext")
			}
		})
	})
}

func TestService_KeyRotation(t *testing.T) {
	// Own databases: rotation re-seals every share in the database.
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t.Run("KeyRotation", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			a := e.authFor(s)
			e.svc.StoreShares(ctx, a, auth.StoreRequest{DeviceID: dev, AuthShare: b64("auth"), Recovery: auth.Recovery{Mode: "operator", Share: b64("rec")}})
			const k2 = "k2:QEFCQ0RFRkdISUpLTE1OT1BRUlNUVVZXWFlaW1xdXl8="
			const r2 = "r2:YGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn8="
			rotated := newEnvOn(t, e, k2+","+testKEK, r2+","+testRecovery)
			// Before rotation the old keys still open the records.
			if got, err := rotated.svc.FetchShares(ctx, a, dev, true); err != nil || got.AuthShare != b64("auth") {
				t.Fatalf("%+v %v", got, err)
			}
			n, err := rotated.svc.RotateKeys(ctx)
			if err != nil || n != 1 {
				t.Fatalf("rotated %d: %v", n, err)
			}
			if n, _ := rotated.svc.RotateKeys(ctx); n != 0 {
				t.Fatalf("second rotation re-sealed %d", n)
			}
			var keyID, recKeyID string
			db.QueryRow(ctx, `SELECT key_id, recovery_key_id FROM auth_shares`).Scan(&keyID, &recKeyID)
			if keyID != "k2" || recKeyID != "r2" {
				t.Fatalf("keys %s %s", keyID, recKeyID)
			}
			onlyNew := newEnvOn(t, e, k2, r2)
			if got, err := onlyNew.svc.FetchShares(ctx, a, dev, true); err != nil || got.AuthShare != b64("auth") || got.Recovery.Share != b64("rec") {
				t.Fatalf("with the new keys only: %+v %v", got, err)
			}
			onlyOld := newEnvOn(t, e, testKEK, testRecovery)
			if _, err := onlyOld.svc.FetchShares(ctx, a, dev, false); err == nil {
				t.Fatal("the retired key still opens the share")
			}
		})
	})
}

// newEnvOn is a second service on e's database and project with other keys.
func newEnvOn(t *testing.T, e *env, kek, recovery string) *env {
	t.Helper()
	cfg := e.cfg
	var err error
	if cfg.Keys, err = auth.ParseKeyring("--auth-kek", kek); err != nil {
		t.Fatal(err)
	}
	if cfg.RecoveryKeys, err = auth.ParseKeyring("--auth-recovery-key", recovery); err != nil {
		t.Fatal(err)
	}
	e2 := *e
	if e2.svc, err = auth.New(cfg); err != nil {
		t.Fatal(err)
	}
	return &e2
}

func TestService_ChangeEmail(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t.Run("OK", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev, dev2 := newDevice(), newDevice()
			s := e.login("old@example.com", dev)
			other := e.login("old@example.com", dev2)
			a := e.authFor(s)
			action, err := e.svc.ChangeEmail(ctx, e.p, a, "New@Example.com", "ip")
			if err != nil || action != auth.ActionVerifyPrimaryOTP {
				t.Fatalf("%s %v", action, err)
			}
			m := e.last("old@example.com")
			if m.Kind != "email-change" || len(m.Code) != 6 {
				t.Fatalf("%+v", m)
			}
			_, err = e.svc.ChangeEmailPrimary(ctx, e.p, a, wrong(m.Code), "ip")
			wantCode(t, err, apperr.Invalid, auth.MsgInvalidCode)
			if action, err = e.svc.ChangeEmailPrimary(ctx, e.p, a, m.Code, "ip"); err != nil || action != auth.ActionVerifySecondaryOTP {
				t.Fatalf("%s %v", action, err)
			}
			m2 := e.last("new@example.com")
			email, sess, err := e.svc.ChangeEmailSecondary(ctx, e.p, a, m2.Code, dev, "ip", "ua")
			if err != nil || email != "new@example.com" || sess.User.Email != "new@example.com" {
				t.Fatalf("%s %+v %v", email, sess, err)
			}
			// Every earlier session is revoked; the new one works.
			for _, old := range []string{s.AccessToken, other.AccessToken} {
				if _, err := e.svc.Authenticate(ctx, e.p.ID, old); apperr.Code(err) != apperr.Unauthorized {
					t.Fatalf("old session survived: %v", err)
				}
			}
			if _, err := e.svc.Refresh(ctx, e.p.ID, other.RefreshToken, dev2); apperr.Code(err) != apperr.Unauthorized {
				t.Fatalf("old refresh token survived: %v", err)
			}
			if a := e.authFor(sess); a.Email != "new@example.com" {
				t.Fatalf("%+v", a)
			}
			// The devices stay known under the new address.
			e.clock.Add(auth.ResendCooldown)
			e.mustStart("new@example.com", dev2, auth.ActionVerifyOTP)
		})
		t.Run("ErrTaken", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			a := e.authFor(e.login("a@example.com", dev))
			e.login("b@example.com", newDevice())
			e.svc.ChangeEmail(ctx, e.p, a, "b@example.com", "ip")
			e.svc.ChangeEmailPrimary(ctx, e.p, a, e.last("a@example.com").Code, "ip")
			_, _, err := e.svc.ChangeEmailSecondary(ctx, e.p, a, e.last("b@example.com").Code, dev, "ip", "")
			wantCode(t, err, apperr.Conflict, "")
			if _, err := e.svc.Authenticate(ctx, e.p.ID, "x"); err == nil {
				t.Fatal()
			}
		})
		t.Run("ErrSameOrInvalid", func(t *testing.T) {
			e := newEnv(t, db, nil)
			a := e.authFor(e.login("a@example.com", newDevice()))
			if _, err := e.svc.ChangeEmail(ctx, e.p, a, "A@example.com", "ip"); apperr.Code(err) != apperr.Invalid {
				t.Fatal(err)
			}
			_, err := e.svc.ChangeEmail(ctx, e.p, a, "not-an-address", "ip")
			wantCode(t, err, apperr.Invalid, auth.MsgInvalidEmail)
		})
	})
}

func TestService_Prune(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, nil)
		dev := newDevice()
		s1 := e.login("a@example.com", dev)
		s2, err := e.svc.Refresh(ctx, e.p.ID, s1.RefreshToken, dev)
		if err != nil {
			t.Fatal(err)
		}
		revoked := e.login("b@example.com", newDevice())
		e.svc.RevokeSession(ctx, e.authFor(revoked), "current")
		if n, err := e.svc.Prune(ctx); err != nil || n != 0 {
			t.Fatalf("pruned %d at once: %v", n, err)
		}
		// A day on: the revoked session and the used codes and links go; the
		// live session and its spent refresh token (reuse detection) stay.
		e.clock.Add(25 * time.Hour)
		if _, err := e.svc.Prune(ctx); err != nil {
			t.Fatal(err)
		}
		if n := countRows(t, db, "auth_sessions"); n != 1 {
			t.Fatalf("%d sessions left", n)
		}
		if n := countRows(t, db, "auth_challenges"); n != 0 {
			t.Fatalf("%d challenges left", n)
		}
		_, err = e.svc.Refresh(ctx, e.p.ID, s1.RefreshToken, dev)
		wantCode(t, err, apperr.Unauthorized, auth.MsgSessionExpired)
		if _, err := e.svc.Refresh(ctx, e.p.ID, s2.RefreshToken, dev); apperr.Code(err) != apperr.Unauthorized {
			t.Fatal("reuse after the prune was not caught")
		}
		// Past the refresh tokens' lifetime everything goes.
		e.clock.Add(auth.RefreshTTL + 25*time.Hour)
		e.svc.Prune(ctx)
		e.svc.Prune(ctx)
		for _, table := range []string{"auth_sessions", "auth_refresh_tokens"} {
			if n := countRows(t, db, table); n != 0 {
				t.Fatalf("%d rows left in %s", n, table)
			}
		}
	})
}
