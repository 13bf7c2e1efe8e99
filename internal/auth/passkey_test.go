package auth_test

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/internal/store/storetest"
)

const (
	rpID   = "frame.example"
	origin = "https://frame.example"
)

// registerPasskey adds a passkey made by a new software authenticator to
// the session's user.
func (e *env) registerPasskey(s *auth.Session, device string) *authenticator {
	e.t.Helper()
	ctx := context.Background()
	a := e.authFor(s)
	c, err := e.svc.BeginPasskeyRegistration(ctx, e.p, a, device)
	if err != nil {
		e.t.Fatal(err)
	}
	k := newAuthenticator(e.t, rpID, origin)
	if _, err := e.svc.FinishPasskeyRegistration(ctx, e.p, a, device, c.ChallengeID, "laptop", k.create(c.Options)); err != nil {
		e.t.Fatal(err)
	}
	return k
}

// passkeyLogin runs a passkey login on device with answer (k.get when nil).
func (e *env) passkeyLogin(k *authenticator, device string, answer func(options any) json.RawMessage) (*auth.Session, error) {
	e.t.Helper()
	ctx := context.Background()
	c, err := e.svc.BeginPasskeyLogin(ctx, e.p, device, ip)
	if err != nil {
		e.t.Fatal(err)
	}
	if answer == nil {
		answer = k.get
	}
	return e.svc.FinishPasskeyLogin(ctx, auth.PasskeyLoginRequest{Project: e.p, DeviceID: device, ChallengeID: c.ChallengeID, Credential: answer(c.Options), IP: ip})
}

func TestService_Passkeys(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		t.Run("RegisterAndLogin", func(t *testing.T) {
			e := newEnv(t, db, wideLimits)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			k := e.registerPasskey(s, dev)
			list, err := e.svc.ListPasskeys(ctx, e.authFor(s))
			if err != nil || len(list) != 1 || list[0].Name != "laptop" || list[0].ID != b64url(k.credID) {
				t.Fatalf("%+v %v", list, err)
			}
			// A passkey login on a new device: a session with the factor and a passkey fresh.
			dev2 := newDevice()
			sess, err := e.passkeyLogin(k, dev2, nil)
			if err != nil || sess.Pending != nil || sess.User.Email != "a@example.com" {
				t.Fatalf("%+v %v", sess, err)
			}
			a := e.authFor(sess)
			if a.DeviceID != dev2 || !a.FactorFresh(e.clock.Now()) || !a.PasskeyFresh(e.clock.Now()) || a.CodeFresh(e.clock.Now()) {
				t.Fatalf("%+v", a)
			}
			// The passkey is a second factor: an e-mail login on a third device waits for it.
			if p := e.login("a@example.com", newDevice()).Pending; p == nil || p.Methods[0] != auth.MethodPasskey {
				t.Fatalf("pending %+v", p)
			}
			// The second device passed the factor: its e-mail logins are sessions.
			e.clock.Add(auth.ResendCooldown)
			e.mustStart("a@example.com", dev2, auth.ActionVerifyOTP)
			if s, err := e.verify("a@example.com", dev2, e.last("a@example.com").Code); err != nil || s.Pending != nil {
				t.Fatalf("%+v %v", s, err)
			}
		})
		t.Run("RegistrationRefusals", func(t *testing.T) {
			e := newEnv(t, db, nil)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			a := e.authFor(s)
			begin := func() *auth.Ceremony {
				c, err := e.svc.BeginPasskeyRegistration(ctx, e.p, a, dev)
				if err != nil {
					t.Fatal(err)
				}
				return c
			}
			k := newAuthenticator(t, rpID, origin)
			for name, answer := range map[string]func(any) json.RawMessage{
				"WrongOrigin": func(o any) json.RawMessage { return k.createWith(o, "https://evil.example", rpID, flagUP|flagUV) },
				"DappOrigin":  func(o any) json.RawMessage { return k.createWith(o, "https://dapp.example", rpID, flagUP|flagUV) },
				"WrongRPID": func(o any) json.RawMessage {
					return k.createWith(o, "https://frame.example", "evil.example", flagUP|flagUV)
				},
				"NoUV":    func(o any) json.RawMessage { return k.createWith(o, origin, rpID, flagUP) },
				"Garbage": func(o any) json.RawMessage { return json.RawMessage(`{"id":"x"}`) },
			} {
				c := begin()
				_, err := e.svc.FinishPasskeyRegistration(ctx, e.p, a, dev, c.ChallengeID, "", answer(c.Options))
				if apperr.Code(err) != apperr.Unauthorized {
					t.Errorf("%s: %v", name, err)
				}
			}
			// A challenge works once, only for its device and session, and expires.
			c := begin()
			if _, err := e.svc.FinishPasskeyRegistration(ctx, e.p, a, newDevice(), c.ChallengeID, "", k.create(c.Options)); apperr.Code(err) != apperr.Forbidden {
				t.Fatalf("another device: %v", err)
			}
			s2 := e.login("a@example.com", newDevice())
			a2 := e.authFor(s2)
			_, err := e.svc.FinishPasskeyRegistration(ctx, e.p, a2, a2.DeviceID, c.ChallengeID, "", k.create(c.Options))
			wantCode(t, err, apperr.Invalid, auth.MsgCeremonyExpired)
			c = begin()
			e.clock.Add(auth.CeremonyTTL + time.Second)
			_, err = e.svc.FinishPasskeyRegistration(ctx, e.p, a, dev, c.ChallengeID, "", k.create(c.Options))
			wantCode(t, err, apperr.Invalid, auth.MsgCeremonyExpired)
			if list, _ := e.svc.ListPasskeys(ctx, a); len(list) != 0 {
				t.Fatalf("%d passkeys stored", len(list))
			}
			// Registering needs a fresh login (no factor yet).
			e.clock.Add(auth.FreshWindow)
			s, err = e.svc.Refresh(ctx, e.p.ID, s.RefreshToken, dev)
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.svc.BeginPasskeyRegistration(ctx, e.p, e.authFor(s), dev)
			wantCode(t, err, apperr.Forbidden, auth.MsgNotFresh)
		})
		t.Run("LoginRefusals", func(t *testing.T) {
			e := newEnv(t, db, wideLimits)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			k := e.registerPasskey(s, dev)
			refused := func(name string, answer func(any) json.RawMessage) {
				t.Helper()
				if _, err := e.passkeyLogin(k, newDevice(), answer); apperr.Code(err) != apperr.Unauthorized {
					t.Errorf("%s: %v", name, err)
				}
			}
			refused("WrongOrigin", func(o any) json.RawMessage {
				k.counter++
				return k.getWith(o, "https://evil.example", rpID, k.userHandle)
			})
			refused("WrongRPID", func(o any) json.RawMessage { k.counter++; return k.getWith(o, origin, "evil.example", k.userHandle) })
			refused("WrongUserHandle", func(o any) json.RawMessage { k.counter++; return k.getWith(o, origin, rpID, []byte("someone-else")) })
			stranger := newAuthenticator(t, rpID, origin)
			stranger.userHandle = k.userHandle
			refused("UnknownCredential", stranger.get)
			refused("BadSignature", func(o any) json.RawMessage {
				var v map[string]any
				json.Unmarshal(k.get(o), &v)
				resp := v["response"].(map[string]any)
				sig, _ := base64.RawURLEncoding.DecodeString(resp["signature"].(string))
				sig[len(sig)-1] ^= 1
				resp["signature"] = b64url(sig)
				return mustJSON(v)
			})

			// A challenge is bound to the device that began it and spent once.
			c, err := e.svc.BeginPasskeyLogin(ctx, e.p, dev, ip)
			if err != nil {
				t.Fatal(err)
			}
			answer := k.get(c.Options)
			_, err = e.svc.FinishPasskeyLogin(ctx, auth.PasskeyLoginRequest{Project: e.p, DeviceID: newDevice(), ChallengeID: c.ChallengeID, Credential: answer, IP: ip})
			wantCode(t, err, apperr.Invalid, auth.MsgCeremonyExpired)
			if _, err := e.svc.FinishPasskeyLogin(ctx, auth.PasskeyLoginRequest{Project: e.p, DeviceID: dev, ChallengeID: c.ChallengeID, Credential: answer, IP: ip}); err != nil {
				t.Fatalf("the right device: %v", err)
			}
			_, err = e.svc.FinishPasskeyLogin(ctx, auth.PasskeyLoginRequest{Project: e.p, DeviceID: dev, ChallengeID: c.ChallengeID, Credential: answer, IP: ip})
			wantCode(t, err, apperr.Invalid, auth.MsgCeremonyExpired)

			// An expired challenge.
			c, _ = e.svc.BeginPasskeyLogin(ctx, e.p, dev, ip)
			e.clock.Add(auth.CeremonyTTL + time.Second)
			_, err = e.svc.FinishPasskeyLogin(ctx, auth.PasskeyLoginRequest{Project: e.p, DeviceID: dev, ChallengeID: c.ChallengeID, Credential: k.get(c.Options), IP: ip})
			wantCode(t, err, apperr.Invalid, auth.MsgCeremonyExpired)

			// Another project's users are not found by this project's login.
			other := &project.Project{Name: "Other", Features: project.DefaultFeatures()}
			if err := e.cfg.Projects.Create(ctx, other); err != nil {
				t.Fatal(err)
			}
			c, _ = e.svc.BeginPasskeyLogin(ctx, other, dev, ip)
			_, err = e.svc.FinishPasskeyLogin(ctx, auth.PasskeyLoginRequest{Project: other, DeviceID: dev, ChallengeID: c.ChallengeID, Credential: k.get(c.Options), IP: ip})
			if apperr.Code(err) != apperr.Unauthorized {
				t.Fatalf("another project: %v", err)
			}
		})
		t.Run("ClonedCounter", func(t *testing.T) {
			e := newEnv(t, db, wideLimits)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			k := e.registerPasskey(s, dev)
			k.counter = 10
			if _, err := e.passkeyLogin(k, dev, func(o any) json.RawMessage { return k.getWith(o, origin, rpID, k.userHandle) }); err != nil {
				t.Fatal(err)
			}
			// A copy whose counter is behind (or equal): refused, and the passkey is disabled.
			_, err := e.passkeyLogin(k, dev, func(o any) json.RawMessage { return k.getWith(o, origin, rpID, k.userHandle) })
			wantCode(t, err, apperr.Forbidden, auth.MsgPasskeyCloned)
			k.counter = 50
			_, err = e.passkeyLogin(k, dev, func(o any) json.RawMessage { return k.getWith(o, origin, rpID, k.userHandle) })
			wantCode(t, err, apperr.Forbidden, auth.MsgPasskeyCloned)
			if list, _ := e.svc.ListPasskeys(ctx, e.authFor(s)); !list[0].CloneWarning {
				t.Fatal("the passkey is not flagged")
			}
		})
		t.Run("StepUpAndRemove", func(t *testing.T) {
			e := newEnv(t, db, wideLimits)
			dev := newDevice()
			s := e.login("a@example.com", dev)
			k := e.registerPasskey(s, dev)
			e.clock.Add(auth.FactorWindow + time.Second)
			a := e.authFor(s)
			id := b64url(k.credID)
			err := e.svc.RemovePasskey(ctx, a, dev, id)
			wantCode(t, err, apperr.Forbidden, auth.MsgFactorRequired)
			c, err := e.svc.BeginPasskeyAssertion(ctx, e.p, a, dev)
			if err != nil {
				t.Fatal(err)
			}
			// Another user's session cannot spend it.
			s2 := e.login("b@example.com", newDevice())
			a2 := e.authFor(s2)
			_, err = e.svc.FinishPasskeyAssertion(ctx, e.p, a2, a2.DeviceID, c.ChallengeID, ip, k.get(c.Options))
			wantCode(t, err, apperr.Invalid, auth.MsgCeremonyExpired)
			if _, err := e.svc.FinishPasskeyAssertion(ctx, e.p, a, dev, c.ChallengeID, ip, k.get(c.Options)); err != nil {
				t.Fatal(err)
			}
			a = e.authFor(s)
			if !a.FactorFresh(e.clock.Now()) || !a.PasskeyFresh(e.clock.Now()) {
				t.Fatalf("%+v", a)
			}
			err = e.svc.RemovePasskey(ctx, a, dev, "no-such")
			wantCode(t, err, apperr.NotFound, "")
			if err := e.svc.RemovePasskey(ctx, a, dev, id); err != nil {
				t.Fatal(err)
			}
			// b has no passkey to step up with.
			_, err = e.svc.BeginPasskeyAssertion(ctx, e.p, a2, a2.DeviceID)
			wantCode(t, err, apperr.NotFound, auth.MsgNoPasskey)
		})
		t.Run("IPFrameOrigin", func(t *testing.T) {
			e := newEnv(t, db, func(c *auth.Config) { c.LinkBase = func() string { return "http://127.0.0.1:8081" } })
			_, err := e.svc.BeginPasskeyLogin(ctx, e.p, newDevice(), ip)
			wantCode(t, err, apperr.Unavailable, auth.MsgPasskeysNeedDomain)
		})
	})
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// TestService_PasskeyRecovery: the recovery share the frame encrypted with
// a PRF-derived key is stored so that latchd's data and both of its keys
// do not open it.
func TestService_PasskeyRecovery(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := newEnv(t, db, wideLimits)
		dev := newDevice()
		s := e.login("a@example.com", dev)
		k := e.registerPasskey(s, dev)
		secret := e.enrolTOTP(s, dev) // a second factor that is not a passkey

		// The frame: PRF output → key (the frame uses HKDF; any KDF the
		// server does not know shows the same) → AES-GCM of the share.
		share := []byte("recovery share: 0123456789abcdef0123456789abcdef")
		prf := make([]byte, 32)
		rand.Read(prf)
		prfKey := sha256.Sum256(append([]byte("latch-passkey-recovery"), prf...))
		block, _ := aes.NewCipher(prfKey[:])
		gcm, _ := cipher.NewGCM(block)
		nonce := make([]byte, gcm.NonceSize())
		rand.Read(nonce)
		ct := append(nonce, gcm.Seal(nil, nonce, share, nil)...)
		kdf := json.RawMessage(`{"alg":"HKDF-SHA256","salt":"c2FsdA","credentialId":"` + b64url(k.credID) + `"}`)
		req := auth.PasskeyRecoveryRequest{DeviceID: dev, Ciphertext: base64.StdEncoding.EncodeToString(ct), KDF: kdf}

		// The operator-mode share first, which the server's keys do open.
		if err := e.svc.StoreShares(ctx, e.authFor(s), auth.StoreRequest{DeviceID: dev, AuthShare: "YXV0aA==", Recovery: auth.Recovery{Mode: auth.RecoveryOperator, Share: base64.StdEncoding.EncodeToString(share)}}); err != nil {
			t.Fatal(err)
		}
		if got := openWithServerKeys(t, e, s.User.ID); !strings.Contains(string(got), string(share)) {
			t.Fatal("control: the server keys do not open the operator-mode share")
		}

		// Storing needs a fresh passkey assertion (the registration was one, FactorWindow ago).
		e.clock.Add(auth.FactorWindow + time.Second)
		err := e.svc.SetPasskeyRecovery(ctx, e.authFor(s), req)
		wantCode(t, err, apperr.Forbidden, auth.MsgPasskeyRequired)
		c, _ := e.svc.BeginPasskeyAssertion(ctx, e.p, e.authFor(s), dev)
		if _, err := e.svc.FinishPasskeyAssertion(ctx, e.p, e.authFor(s), dev, c.ChallengeID, ip, k.get(c.Options)); err != nil {
			t.Fatal(err)
		}
		bad := req
		bad.KDF = json.RawMessage(`{"credentialId":"` + b64url([]byte("not a passkey of this user")) + `"}`)
		err = e.svc.SetPasskeyRecovery(ctx, e.authFor(s), bad)
		wantCode(t, err, apperr.Invalid, "")
		if err := e.svc.SetPasskeyRecovery(ctx, e.authFor(s), req); err != nil {
			t.Fatal(err)
		}
		// Its passkey cannot be removed while it keys the share.
		err = e.svc.RemovePasskey(ctx, e.authFor(s), dev, b64url(k.credID))
		wantCode(t, err, apperr.Conflict, auth.MsgPasskeyKeysRecovery)

		// latchd's data and both its keys: no share.
		if got := openWithServerKeys(t, e, s.User.ID); strings.Contains(string(got), string(share)) {
			t.Fatal("the server keys opened the passkey-mode share")
		}

		// Fetch: an e-mail login (on a device that passed the factor) gets no share without a passkey;
		// a passkey login on a new device gets the ciphertext, which the PRF key opens.
		e.clock.Add(auth.FactorWindow + time.Second)
		e.mustStart("a@example.com", dev, auth.ActionVerifyOTP)
		s2, err := e.verify("a@example.com", dev, e.last("a@example.com").Code)
		if err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.FetchShares(ctx, e.authFor(s2), dev, true)
		wantCode(t, err, apperr.Forbidden, auth.MsgFactorRequired)
		// A fresh TOTP factor is not a passkey: the PRF-encrypted share needs one.
		if _, err := e.svc.VerifyTOTP(ctx, e.authFor(s2), dev, e.code(secret, 0), ip); err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.FetchShares(ctx, e.authFor(s2), dev, true)
		wantCode(t, err, apperr.Forbidden, auth.MsgPasskeyRequired)
		dev2 := newDevice()
		s3, err := e.passkeyLogin(k, dev2, nil)
		if err != nil {
			t.Fatal(err)
		}
		sh, err := e.svc.FetchShares(ctx, e.authFor(s3), dev2, true)
		if err != nil || sh.Recovery.Mode != auth.RecoveryPasskey || sh.Recovery.Share != "" {
			t.Fatalf("%+v %v", sh, err)
		}
		got, _ := base64.StdEncoding.DecodeString(sh.Recovery.Ciphertext)
		plain, err := gcm.Open(nil, got[:gcm.NonceSize()], got[gcm.NonceSize():], nil)
		if err != nil || string(plain) != string(share) {
			t.Fatalf("the frame's key does not open what latchd returned: %v", err)
		}
		var kdfBack map[string]any
		if json.Unmarshal(sh.Recovery.KDF, &kdfBack) != nil || kdfBack["credentialId"] != b64url(k.credID) {
			t.Fatalf("kdf %s", sh.Recovery.KDF)
		}
	})
}

// openWithServerKeys is an attacker with latchd's database and both of its
// keys (--auth-kek and --auth-recovery-key): it opens the recovery record
// with each key it has, and then each layer it finds with each key again,
// and returns everything it could read.
func openWithServerKeys(t *testing.T, e *env, userID string) []byte {
	t.Helper()
	var keyID, mode string
	var sealed []byte
	if err := e.db.QueryRow(context.Background(), `SELECT recovery_key_id, recovery_mode, recovery_share FROM auth_shares WHERE user_id = ?`, userID).Scan(&keyID, &mode, &sealed); err != nil {
		t.Fatal(err)
	}
	var raw [][]byte
	for _, k := range []string{testKEK, testRecovery} {
		_, b, _ := strings.Cut(k, ":")
		key, _ := base64.StdEncoding.DecodeString(b)
		raw = append(raw, key)
	}
	out := append([]byte{}, sealed...)
	layers := [][]byte{sealed}
	for _, ring := range []*auth.Keyring{e.cfg.Keys, e.cfg.RecoveryKeys} {
		for _, id := range []string{"k1", "r1"} {
			if p, err := ring.Open(id, "latch-auth-share\x00"+userID+"\x00recovery", sealed); err == nil {
				layers = append(layers, p)
				out = append(out, p...)
			}
		}
	}
	// Every layer, tried as AES-256-GCM (nonce first) under each raw server key.
	for _, layer := range layers {
		for _, key := range raw {
			block, _ := aes.NewCipher(key)
			gcm, _ := cipher.NewGCM(block)
			if len(layer) > gcm.NonceSize() {
				if p, err := gcm.Open(nil, layer[:gcm.NonceSize()], layer[gcm.NonceSize():], nil); err == nil {
					out = append(out, p...)
				}
			}
		}
	}
	return out
}
