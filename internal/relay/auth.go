package relay

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/base58"
)

// The relay auth token (@walletconnect/relay-auth): a JWT with header
// {"alg":"EdDSA","typ":"JWT"} and payload {iss, sub, aud, iat, exp}, signed
// with the client's Ed25519 key, whose public key is the did:key in iss.
// The JS client does not send "act", so it is not required.
const (
	didKeyPrefix = "did:key:z"
	jwtAlg       = "EdDSA"
	jwtTyp       = "JWT"
	// maxTokenBytes bounds the auth query parameter; a real token is ~400 bytes.
	maxTokenBytes = 4096
)

// ed25519Multicodec is the multicodec header of an Ed25519 public key (0xed 0x01).
var ed25519Multicodec = [2]byte{0xed, 0x01}

// AuthError is why a relay connection was refused. Its message is the close
// reason the client sees ("Unauthorized: ...").
type AuthError struct{ Reason string }

func (e *AuthError) Error() string { return "Unauthorized: " + e.Reason }

func authErr(reason string) error { return &AuthError{Reason: reason} }

// Claims are the verified fields of a relay auth token.
type Claims struct {
	ClientID string // iss: did:key:z6Mk…
	Subject  string
	Audience string
	IssuedAt time.Time
	Expires  time.Time
}

// DefaultTokenMaxLifetime is the longest exp − iat a token may have:
// @walletconnect/core signs for exactly one day (CRYPTO_JWT_TTL = ONE_DAY).
const DefaultTokenMaxLifetime = 24 * time.Hour

// maxClockSkew is how far a client's clock may run ahead of the relay's:
// a token issued further in the future is refused.
const maxClockSkew = 5 * time.Minute

// TokenPolicy bounds the times of the tokens a relay accepts.
type TokenPolicy struct {
	// MaxLifetime bounds exp − iat (0: DefaultTokenMaxLifetime).
	MaxLifetime time.Duration
}

// VerifyToken checks a token under the default TokenPolicy.
func VerifyToken(token string, now time.Time, audOK func(aud string) bool) (*Claims, error) {
	return TokenPolicy{}.Verify(token, now, audOK)
}

// Verify checks a relay auth JWT: the EdDSA signature over the did:key in
// iss; iat present and at most maxClockSkew ahead of now; exp after iat by
// at most MaxLifetime and not past at now; and aud accepted by audOK. The
// error is an *AuthError naming the first check that failed.
func (p TokenPolicy) Verify(token string, now time.Time, audOK func(aud string) bool) (*Claims, error) {
	if p.MaxLifetime <= 0 {
		p.MaxLifetime = DefaultTokenMaxLifetime
	}
	if token == "" {
		return nil, authErr("missing auth token")
	}
	if len(token) > maxTokenBytes {
		return nil, authErr("auth token too long")
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, authErr("malformed auth token")
	}
	var header struct {
		Alg string `json:"alg"`
		Typ string `json:"typ"`
	}
	if err := decodeSegment(parts[0], &header); err != nil {
		return nil, authErr("malformed auth token header")
	}
	if header.Alg != jwtAlg {
		return nil, authErr("auth token must use EdDSA")
	}
	if header.Typ != "" && header.Typ != jwtTyp {
		return nil, authErr("auth token type must be JWT")
	}
	var payload struct {
		Iss string          `json:"iss"`
		Sub string          `json:"sub"`
		Aud string          `json:"aud"`
		Iat json.RawMessage `json:"iat"`
		Exp json.RawMessage `json:"exp"`
	}
	if err := decodeSegment(parts[1], &payload); err != nil {
		return nil, authErr("malformed auth token payload")
	}
	pub, err := ParseDIDKey(payload.Iss)
	if err != nil {
		return nil, authErr("auth token issuer: " + err.Error())
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != ed25519.SignatureSize {
		return nil, authErr("malformed auth token signature")
	}
	if !ed25519.Verify(pub, []byte(parts[0]+"."+parts[1]), sig) {
		return nil, authErr("invalid auth token signature")
	}
	exp, ok := numericDate(payload.Exp)
	if !ok {
		return nil, authErr("auth token has no valid exp")
	}
	if !now.Before(exp) {
		return nil, authErr("auth token expired")
	}
	iat, ok := numericDate(payload.Iat)
	if !ok {
		return nil, authErr("auth token has no valid iat")
	}
	if iat.After(now.Add(maxClockSkew)) {
		return nil, authErr("auth token issued in the future (check the client's clock)")
	}
	if !exp.After(iat) || exp.Sub(iat) > p.MaxLifetime {
		return nil, authErr("auth token lifetime (exp - iat) must be at most " + p.MaxLifetime.String())
	}
	if payload.Aud == "" || !audOK(payload.Aud) {
		return nil, authErr("auth token audience does not match this relay")
	}
	return &Claims{ClientID: payload.Iss, Subject: payload.Sub, Audience: payload.Aud, IssuedAt: iat, Expires: exp}, nil
}

func decodeSegment(s string, v any) error {
	// relay-auth writes unpadded base64url; tolerate padding from other signers.
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// numericDate reads a JWT NumericDate (seconds, possibly fractional).
func numericDate(raw json.RawMessage) (time.Time, bool) {
	var f float64
	if len(raw) == 0 || json.Unmarshal(raw, &f) != nil || f <= 0 || f > 1e11 {
		return time.Time{}, false
	}
	sec := int64(f)
	return time.Unix(sec, int64((f-float64(sec))*1e9)), true
}

// ParseDIDKey returns the Ed25519 public key of a did:key identifier
// (did:key:z + base58btc(0xed01 || key)).
func ParseDIDKey(did string) (ed25519.PublicKey, error) {
	if !strings.HasPrefix(did, didKeyPrefix) {
		return nil, errors.New("not a did:key in base58btc")
	}
	b, err := base58.Decode(did[len(didKeyPrefix):])
	if err != nil {
		return nil, err
	}
	if len(b) != 2+ed25519.PublicKeySize || b[0] != ed25519Multicodec[0] || b[1] != ed25519Multicodec[1] {
		return nil, errors.New("not an Ed25519 did:key")
	}
	return ed25519.PublicKey(b[2:]), nil
}

// DIDKey is the did:key identifier of an Ed25519 public key: the client id
// WalletConnect clients put in iss.
func DIDKey(pub ed25519.PublicKey) string {
	b := append(ed25519Multicodec[:], pub...)
	return didKeyPrefix + base58.Encode(b)
}

// SignToken signs a relay auth token the way @walletconnect/relay-auth does,
// for Go clients and tests: iss = DIDKey(key), exp = iat + ttl.
func SignToken(key ed25519.PrivateKey, sub, aud string, iat time.Time, ttl time.Duration) string {
	enc := base64.RawURLEncoding
	header := enc.EncodeToString([]byte(`{"alg":"EdDSA","typ":"JWT"}`))
	payload, _ := json.Marshal(map[string]any{
		"iss": DIDKey(key.Public().(ed25519.PublicKey)), "sub": sub, "aud": aud,
		"iat": iat.Unix(), "exp": iat.Add(ttl).Unix(),
	})
	data := header + "." + enc.EncodeToString(payload)
	return data + "." + enc.EncodeToString(ed25519.Sign(key, []byte(data)))
}

// audienceMatcher returns the aud check for a connection: aud must name this
// relay, i.e. have the scheme and host of public (the configured relay URL,
// or the one derived from the request) and its path or the request's path.
// The JS client signs aud = the relayUrl it was given, verbatim.
func audienceMatcher(public *url.URL, requestPath string) func(string) bool {
	return func(aud string) bool {
		u, err := url.Parse(aud)
		if err != nil || u.Host == "" {
			return false
		}
		if !strings.EqualFold(u.Scheme, public.Scheme) || !sameHost(u, public) {
			return false
		}
		p := strings.TrimRight(u.Path, "/")
		return p == strings.TrimRight(public.Path, "/") || p == strings.TrimRight(requestPath, "/")
	}
}

// sameHost compares the hosts of two relay URLs. For a loopback relay
// (latchd dev) localhost, 127.0.0.1 and ::1 name the same listener, as a
// browser on that machine sees it.
func sameHost(u, public *url.URL) bool {
	if normalHost(u) == normalHost(public) {
		return true
	}
	if !isLoopback(public.Hostname()) || !isLoopback(u.Hostname()) {
		return false
	}
	return normalHost(&url.URL{Scheme: u.Scheme, Host: net.JoinHostPort("localhost", u.Port())}) ==
		normalHost(&url.URL{Scheme: public.Scheme, Host: net.JoinHostPort("localhost", public.Port())})
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// normalHost is the lower-cased host:port of a ws/wss URL with the default
// port made explicit, so ws://h and ws://h:80 compare equal.
func normalHost(u *url.URL) string {
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "wss", "https":
			port = "443"
		default:
			port = "80"
		}
	}
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + port
	}
	return host + ":" + port
}
