package siwx

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/base58"
)

// Reasons of a refused sign-in: Error.Reason is one of them.
const (
	ReasonMalformed    = "malformed"     // the message does not follow the grammar
	ReasonDomain       = "domain"        // the domain is not one the verifier accepts
	ReasonURI          = "uri"           // the URI is not on the domain
	ReasonChain        = "chain"         // the chain is not one the verifier accepts
	ReasonNonce        = "nonce"         // not the nonce the verifier issued
	ReasonExpired      = "expired"       // expirationTime has passed
	ReasonNotYetValid  = "not_yet_valid" // notBefore (or issuedAt) is in the future
	ReasonSignature    = "signature"     // the signature is not the address's
	ReasonUnverifiable = "unverifiable"  // a contract signature could not be checked (no RPC, RPC failed)
)

// Error is a refused sign-in. Message is safe to show to the user.
type Error struct {
	Reason  string
	Field   string
	Message string
	err     error // the underlying failure, for an unverifiable signature
}

func (e *Error) Error() string {
	if e.Field != "" {
		return "siwx: " + e.Field + ": " + e.Message
	}
	return "siwx: " + e.Message
}

func (e *Error) Unwrap() error { return e.err }

// ReasonOf returns err's Reason, or "" when err is not an *Error.
func ReasonOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

func refuse(reason, field, format string, args ...any) *Error {
	return &Error{Reason: reason, Field: field, Message: fmt.Sprintf(format, args...)}
}

// DefaultSkew is how far the verifier's clock and the wallet's may disagree
// on issuedAt, notBefore and expirationTime.
const DefaultSkew = time.Minute

// EthCaller runs eth_call against one EVM chain at its latest block. A nil
// to is a call without a recipient: data runs as creation code and the call
// returns what the constructor returns (ERC-6492's off-chain validation).
type EthCaller interface {
	EthCall(ctx context.Context, to *common.Address, data []byte) ([]byte, error)
}

// Verifier checks sign-in messages and their signatures. The zero value
// checks EOA and Solana signatures and refuses smart-account ones as
// unverifiable; set Chains to verify those too.
type Verifier struct {
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Skew is the clock tolerance; 0 means DefaultSkew.
	Skew time.Duration
	// Chains returns the caller of an EVM chain by CAIP-2 id ("eip155:1"),
	// used for ERC-1271 and ERC-6492 signatures; nil, or an error, makes such
	// signatures unverifiable.
	Chains func(chainID string) (EthCaller, error)
}

// Expect is what a sign-in must match beyond its signature.
type Expect struct {
	// Domain accepts or refuses the message's domain (an RFC 3986
	// authority, e.g. "app.example.com" or "localhost:3000"). Required.
	Domain func(domain string) bool
	// Nonce is the nonce the verifier issued for this sign-in. Required:
	// a nonce is what keeps a signed message from being replayed.
	Nonce string
	// ChainIDs, when not empty, are the CAIP-2 ids accepted.
	ChainIDs []string
}

// Verify parses message, checks it against want and the clock, and checks
// that signature is the message's address's. signature is 0x hex for
// eip155 (65-byte EOA, an ERC-1271 wallet's own bytes or an ERC-6492 wrap),
// base58 or base64 for solana (64-byte ed25519). Every refusal is an *Error.
func (v *Verifier) Verify(ctx context.Context, message, signature string, want Expect) (*SignIn, error) {
	m, err := ParseMessage(message)
	if err != nil {
		return nil, err
	}
	if err := v.Check(m, want); err != nil {
		return nil, err
	}
	kind, err := v.VerifySignature(ctx, m, message, signature)
	if err != nil {
		return nil, err
	}
	return &SignIn{Message: m, Raw: message, Signature: signature, Kind: kind}, nil
}

// How a signature was verified (the CACAO's signature type, CAIP-74).
const (
	KindEIP191  = "eip191"         // an EOA's personal_sign, by ecrecover
	KindEIP1271 = "eip1271"        // a deployed smart account, by isValidSignature
	KindEIP6492 = "eip6492"        // an undeployed smart account, by the universal validator
	KindEd25519 = "solana:ed25519" // a Solana account
)

// SignIn is a verified sign-in.
type SignIn struct {
	Message   *Message
	Raw       string // the message exactly as signed
	Signature string
	Kind      string // KindEIP191, KindEIP1271, KindEIP6492 or KindEd25519
}

// Check checks a parsed message's fields against want and the clock.
func (v *Verifier) Check(m *Message, want Expect) error {
	if want.Domain == nil || !want.Domain(m.Domain) {
		return refuse(ReasonDomain, "domain", "Domain %s is not allowed to sign in to this project", m.Domain)
	}
	u, err := parseURL(m.URI)
	if err != nil || u.Host != m.Domain {
		return refuse(ReasonURI, "uri", "URI %s is not on the domain %s", clip(m.URI), m.Domain)
	}
	if m.Scheme != "" && u.Scheme != m.Scheme {
		return refuse(ReasonURI, "uri", "URI %s does not use the message's scheme %s", clip(m.URI), m.Scheme)
	}
	if len(want.ChainIDs) > 0 && !contains(want.ChainIDs, m.ChainID) {
		return refuse(ReasonChain, "chainId", "Chain %s is not one this sign-in accepts (%s)", m.ChainID, strings.Join(want.ChainIDs, ", "))
	}
	if want.Nonce == "" || m.Nonce != want.Nonce {
		return refuse(ReasonNonce, "nonce", "Nonce does not match the one issued for this sign-in")
	}
	now := v.now()
	skew := v.skew()
	if m.ExpirationTime != nil && !now.Before(m.ExpirationTime.Add(skew)) {
		return refuse(ReasonExpired, "expirationTime", "Message expired at %s", m.ExpirationTime.UTC().Format(time.RFC3339))
	}
	if m.NotBefore != nil && now.Add(skew).Before(*m.NotBefore) {
		return refuse(ReasonNotYetValid, "notBefore", "Message is not valid before %s", m.NotBefore.UTC().Format(time.RFC3339))
	}
	if now.Add(skew).Before(m.IssuedAt) {
		return refuse(ReasonNotYetValid, "issuedAt", "Message is issued in the future (%s)", m.IssuedAt.UTC().Format(time.RFC3339))
	}
	return nil
}

// VerifySignature checks that signature signs raw (the exact text that was
// parsed into m) by m.Address, and returns how (a Kind constant).
func (v *Verifier) VerifySignature(ctx context.Context, m *Message, raw, signature string) (string, error) {
	switch m.Namespace {
	case Solana:
		return KindEd25519, verifySolana(m, raw, signature)
	case EIP155:
		return v.verifyEVM(ctx, m, raw, signature)
	}
	return "", refuse(ReasonMalformed, "domain", "Namespace %s is not supported", m.Namespace)
}

func verifySolana(m *Message, raw, signature string) error {
	sig, err := base58.Decode(signature)
	if err != nil || len(sig) != ed25519.SignatureSize {
		if b, err64 := base64.StdEncoding.DecodeString(signature); err64 == nil && len(b) == ed25519.SignatureSize {
			sig, err = b, nil
		} else {
			return refuse(ReasonSignature, "signature", "Signature is not a base58 or base64 64-byte ed25519 signature")
		}
	}
	pub, _ := base58.Decode(m.Address)
	if !ed25519.Verify(ed25519.PublicKey(pub), []byte(raw), sig) {
		return refuse(ReasonSignature, "signature", "Signature is not %s's", m.Address)
	}
	return nil
}

// erc6492Suffix ends every ERC-6492 wrapped signature.
var erc6492Suffix = common.FromHex("0x6492649264926492649264926492649264926492649264926492649264926492")

// erc1271Magic is isValidSignature's selector and its success value.
var erc1271Magic = []byte{0x16, 0x26, 0xba, 0x7e}

func (v *Verifier) verifyEVM(ctx context.Context, m *Message, raw, signature string) (string, error) {
	sig, err := hexutil.Decode(signature)
	if err != nil || len(sig) == 0 {
		return "", refuse(ReasonSignature, "signature", "Signature is not 0x-prefixed hex")
	}
	addr := common.HexToAddress(m.Address)
	hash := accounts.TextHash([]byte(raw)) // EIP-191 personal_sign
	if bytes.HasSuffix(sig, erc6492Suffix) {
		return KindEIP6492, v.verify6492(ctx, m, addr, hash, sig)
	}
	if len(sig) == 65 && recoverEOA(hash, sig) == addr {
		return KindEIP191, nil
	}
	return KindEIP1271, v.verify1271(ctx, m, addr, hash, sig)
}

// recoverEOA returns the signer of hash, or the zero address.
func recoverEOA(hash, sig []byte) common.Address {
	s := bytes.Clone(sig)
	if s[64] >= 27 {
		s[64] -= 27
	}
	pub, err := crypto.SigToPub(hash, s)
	if err != nil {
		return common.Address{}
	}
	return crypto.PubkeyToAddress(*pub)
}

func (v *Verifier) caller(m *Message) (EthCaller, error) {
	if v.Chains == nil {
		return nil, &Error{Reason: ReasonUnverifiable, Field: "signature", Message: fmt.Sprintf("Signature is not %s's as an EOA, and smart-account signatures cannot be checked here (no RPC for %s)", m.Address, m.ChainID)}
	}
	c, err := v.Chains(m.ChainID)
	if err != nil || c == nil {
		return nil, &Error{Reason: ReasonUnverifiable, Field: "signature", Message: fmt.Sprintf("Signature is not %s's as an EOA, and %s has no RPC to check a smart-account signature", m.Address, m.ChainID), err: err}
	}
	return c, nil
}

// verify1271 asks the address, as an ERC-1271 contract, through one eth_call.
func (v *Verifier) verify1271(ctx context.Context, m *Message, addr common.Address, hash, sig []byte) error {
	c, err := v.caller(m)
	if err != nil {
		return err
	}
	data := append(bytes.Clone(erc1271Magic), abiEncode(word(hash), dynBytes(sig))...)
	out, err := c.EthCall(ctx, &addr, data)
	if err != nil {
		if isRevert(err) {
			return refuse(ReasonSignature, "signature", "Signature is not %s's (its contract refused it)", m.Address)
		}
		return &Error{Reason: ReasonUnverifiable, Field: "signature", Message: fmt.Sprintf("Could not check the signature on %s; try again", m.ChainID), err: err}
	}
	if len(out) == 0 {
		// No code at the address (an EOA, or an undeployed smart account
		// whose wallet did not wrap its signature in ERC-6492).
		return refuse(ReasonSignature, "signature", "Signature is not %s's", m.Address)
	}
	if len(out) < 32 || !bytes.Equal(out[:4], erc1271Magic) {
		return refuse(ReasonSignature, "signature", "Signature is not %s's (its contract refused it)", m.Address)
	}
	return nil
}

// verify6492 runs ERC-6492's universal validator as creation code (no
// deployment): it deploys the counterfactual account inside the call, then
// asks it through ERC-1271, and returns one byte, 0x01 for valid.
func (v *Verifier) verify6492(ctx context.Context, m *Message, addr common.Address, hash, sig []byte) error {
	c, err := v.caller(m)
	if err != nil {
		return err
	}
	data := append(bytes.Clone(validateSigOffchainCode()), abiEncode(word(common.LeftPadBytes(addr.Bytes(), 32)), word(hash), dynBytes(sig))...)
	out, err := c.EthCall(ctx, nil, data)
	if err != nil {
		if isRevert(err) {
			return refuse(ReasonSignature, "signature", "Signature is not %s's (the ERC-6492 deployment or check failed)", m.Address)
		}
		return &Error{Reason: ReasonUnverifiable, Field: "signature", Message: fmt.Sprintf("Could not check the signature on %s; try again", m.ChainID), err: err}
	}
	if len(out) != 1 || out[0] != 1 {
		return refuse(ReasonSignature, "signature", "Signature is not %s's", m.Address)
	}
	return nil
}

// isRevert reports whether an eth_call error is the EVM's refusal rather
// than the transport's (go-ethereum's rpc errors carry the revert data).
func isRevert(err error) bool {
	var de interface{ ErrorData() any }
	if errors.As(err, &de) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "execution reverted") || strings.Contains(s, "revert")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (v *Verifier) now() time.Time {
	if v.Now != nil {
		return v.Now()
	}
	return time.Now()
}

func (v *Verifier) skew() time.Duration {
	if v.Skew > 0 {
		return v.Skew
	}
	return DefaultSkew
}
