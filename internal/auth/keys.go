package auth

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strings"
)

// MinSecretLen is the shortest --auth-secret accepted, in bytes.
const MinSecretLen = 32

// Keyring holds AES-256 keys by id; the first is the current one, which
// Seal uses. Records carry the id of the key that sealed them, so older keys
// still open them until `latchd auth rotate-key` re-seals them.
type Keyring struct {
	ids  []string
	keys map[string]cipher.AEAD
}

var keyIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// ParseKeyring reads "id:base64key[,id:base64key…]" (--auth-kek,
// --auth-recovery-key): each key 32 bytes in standard or URL base64, ids
// unique. name is the flag, for messages; they never show a key.
func ParseKeyring(name, s string) (*Keyring, error) {
	k := &Keyring{keys: map[string]cipher.AEAD{}}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		id, b64, ok := strings.Cut(part, ":")
		if !ok || !keyIDPattern.MatchString(id) {
			return nil, fmt.Errorf("%s: want id:base64key[,id:base64key…] with ids of letters, digits, - and _", name)
		}
		raw, err := decodeBase64(b64)
		if err != nil || len(raw) != 32 {
			return nil, fmt.Errorf("%s: key %q is not 32 bytes of base64 (e.g. openssl rand -base64 32)", name, id)
		}
		if _, dup := k.keys[id]; dup {
			return nil, fmt.Errorf("%s: key id %q given twice", name, id)
		}
		block, _ := aes.NewCipher(raw)
		aead, _ := cipher.NewGCM(block)
		k.ids = append(k.ids, id)
		k.keys[id] = aead
	}
	if len(k.ids) == 0 {
		return nil, fmt.Errorf("%s: no key", name)
	}
	return k, nil
}

// NewKeyString makes a fresh "id:base64key" for a Keyring.
func NewKeyString(id string) string {
	b := make([]byte, 32)
	rand.Read(b)
	return id + ":" + base64.StdEncoding.EncodeToString(b)
}

// Current is the id of the key Seal uses.
func (k *Keyring) Current() string { return k.ids[0] }

// Seal encrypts plaintext under the current key with AES-256-GCM, bound to
// aad (the record it belongs to), and returns the key id and nonce‖ciphertext.
func (k *Keyring) Seal(aad string, plaintext []byte) (keyID string, sealed []byte) {
	aead := k.keys[k.ids[0]]
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plaintext)+aead.Overhead())
	rand.Read(nonce)
	return k.ids[0], aead.Seal(nonce, nonce, plaintext, []byte(aad))
}

// errUnknownKey: a record sealed under a key the ring no longer has.
var errUnknownKey = errors.New("auth: the record's key is not configured")

// Open decrypts what Seal returned.
func (k *Keyring) Open(keyID, aad string, sealed []byte) ([]byte, error) {
	aead, ok := k.keys[keyID]
	if !ok {
		return nil, fmt.Errorf("%w (key id %q)", errUnknownKey, keyID)
	}
	if len(sealed) < aead.NonceSize() {
		return nil, errors.New("auth: sealed record too short")
	}
	n := aead.NonceSize()
	return aead.Open(nil, sealed[:n], sealed[n:], []byte(aad))
}

func decodeBase64(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, errors.New("not base64")
}

// newToken is 256 random bits as base64url: session tokens, link tokens.
func newToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// newID is a 128-bit random id for rows.
func newID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// hashToken is how tokens are stored: a stolen database holds no usable token.
func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

var million = big.NewInt(1_000_000)

// newCode is a uniformly random 6-digit code: rand.Int draws below 10^6 by
// rejection, so no code is likelier than another (no modulo bias).
func newCode() string {
	n, err := rand.Int(rand.Reader, million)
	if err != nil {
		panic(err) // crypto/rand does not fail
	}
	return fmt.Sprintf("%06d", n.Int64())
}

// codeMAC is how a code is stored: HMAC-SHA256 under the server secret over
// the code and the challenge it belongs to, so a stolen database cannot be
// searched for codes (10^6 guesses per row) without the secret.
func codeMAC(secret []byte, challengeID, code string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("latch-auth-code\x00" + challengeID + "\x00" + code))
	return m.Sum(nil)
}
