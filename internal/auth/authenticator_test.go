package auth_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"testing"
)

// authenticator is a software WebAuthn authenticator for tests: one P-256
// discoverable credential, "none" attestation, user presence and
// verification always set, and a signature counter the test can move.
type authenticator struct {
	t      testing.TB
	key    *ecdsa.PrivateKey
	credID []byte
	// userHandle is set by create (the RP's user id) and sent in assertions.
	userHandle []byte
	counter    uint32
	rpID       string
	origin     string
}

func newAuthenticator(t testing.TB, rpID, origin string) *authenticator {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 32)
	rand.Read(id)
	return &authenticator{t: t, key: k, credID: id, rpID: rpID, origin: origin}
}

// CBOR, as little of it as attestation objects and COSE keys need.
func cborHead(major byte, n uint64) []byte {
	switch {
	case n < 24:
		return []byte{major<<5 | byte(n)}
	case n < 256:
		return []byte{major<<5 | 24, byte(n)}
	default:
		return []byte{major<<5 | 25, byte(n >> 8), byte(n)}
	}
}
func cborInt(v int) []byte {
	if v >= 0 {
		return cborHead(0, uint64(v))
	}
	return cborHead(1, uint64(-1-v))
}
func cborBytes(b []byte) []byte { return append(cborHead(2, uint64(len(b))), b...) }
func cborText(s string) []byte  { return append(cborHead(3, uint64(len(s))), s...) }
func cborMap(pairs ...[]byte) []byte {
	out := cborHead(5, uint64(len(pairs)/2))
	for _, p := range pairs {
		out = append(out, p...)
	}
	return out
}

func b64url(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// challengeOf reads publicKey.challenge from a ceremony's options.
func challengeOf(t testing.TB, options any) string {
	t.Helper()
	raw, _ := json.Marshal(options)
	var o struct {
		PublicKey struct {
			Challenge string `json:"challenge"`
			User      struct {
				ID string `json:"id"`
			} `json:"user"`
		} `json:"publicKey"`
	}
	if err := json.Unmarshal(raw, &o); err != nil || o.PublicKey.Challenge == "" {
		t.Fatalf("options without a challenge: %s", raw)
	}
	return o.PublicKey.Challenge
}

func userIDOf(t testing.TB, options any) []byte {
	raw, _ := json.Marshal(options)
	var o struct {
		PublicKey struct {
			User struct {
				ID string `json:"id"`
			} `json:"user"`
		} `json:"publicKey"`
	}
	json.Unmarshal(raw, &o)
	id, err := base64.RawURLEncoding.DecodeString(o.PublicKey.User.ID)
	if err != nil {
		t.Fatalf("user id %q: %v", o.PublicKey.User.ID, err)
	}
	return id
}

func (a *authenticator) clientData(typ, challenge, origin string) []byte {
	b, _ := json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": origin, "crossOrigin": false})
	return b
}

func (a *authenticator) authData(rpID string, flags byte, attested []byte) []byte {
	h := sha256.Sum256([]byte(rpID))
	out := append([]byte{}, h[:]...)
	out = append(out, flags)
	out = binary.BigEndian.AppendUint32(out, a.counter)
	return append(out, attested...)
}

const (
	flagUP = 0x01
	flagUV = 0x04
	flagAT = 0x40
)

// create answers a registration's options as navigator.credentials.create
// would on origin (a.origin unless the test forges another).
func (a *authenticator) create(options any) json.RawMessage {
	a.t.Helper()
	return a.createWith(options, a.origin, a.rpID, flagUP|flagUV)
}

func (a *authenticator) createWith(options any, origin, rpID string, flags byte) json.RawMessage {
	a.t.Helper()
	a.userHandle = userIDOf(a.t, options)
	cd := a.clientData("webauthn.create", challengeOf(a.t, options), origin)
	x, y := a.key.PublicKey.X.FillBytes(make([]byte, 32)), a.key.PublicKey.Y.FillBytes(make([]byte, 32))
	cose := cborMap(cborInt(1), cborInt(2), cborInt(3), cborInt(-7), cborInt(-1), cborInt(1), cborInt(-2), cborBytes(x), cborInt(-3), cborBytes(y))
	attested := make([]byte, 16) // AAGUID zero
	attested = binary.BigEndian.AppendUint16(attested, uint16(len(a.credID)))
	attested = append(attested, a.credID...)
	attested = append(attested, cose...)
	ad := a.authData(rpID, flags|flagAT, attested)
	att := cborMap(cborText("fmt"), cborText("none"), cborText("attStmt"), cborMap(), cborText("authData"), cborBytes(ad))
	b, _ := json.Marshal(map[string]any{
		"id": b64url(a.credID), "rawId": b64url(a.credID), "type": "public-key", "authenticatorAttachment": "platform",
		"response":               map[string]any{"clientDataJSON": b64url(cd), "attestationObject": b64url(att), "transports": []string{"internal"}},
		"clientExtensionResults": map[string]any{},
	})
	return b
}

// get answers a login's or step-up's options as navigator.credentials.get
// would, with the counter one step on.
func (a *authenticator) get(options any) json.RawMessage {
	a.t.Helper()
	a.counter++
	return a.getWith(options, a.origin, a.rpID, a.userHandle)
}

func (a *authenticator) getWith(options any, origin, rpID string, userHandle []byte) json.RawMessage {
	a.t.Helper()
	cd := a.clientData("webauthn.get", challengeOf(a.t, options), origin)
	ad := a.authData(rpID, flagUP|flagUV, nil)
	h := sha256.Sum256(cd)
	digest := sha256.Sum256(append(append([]byte{}, ad...), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, a.key, digest[:])
	if err != nil {
		a.t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]any{
		"id": b64url(a.credID), "rawId": b64url(a.credID), "type": "public-key", "authenticatorAttachment": "platform",
		"response":               map[string]any{"clientDataJSON": b64url(cd), "authenticatorData": b64url(ad), "signature": b64url(sig), "userHandle": b64url(userHandle)},
		"clientExtensionResults": map[string]any{},
	})
	return b
}
