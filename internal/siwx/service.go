// Package siwx is latchd's Sign-In with X: it issues nonces, verifies
// sign-ins with package pkg/siwx (the package a dapp's own backend imports,
// so both accept exactly the same), and keeps the resulting sessions, bound
// to their project. Its HTTP routes (http.go) follow the sign-in calls of
// AppKit's authentication client, so a client built for that contract works
// against latchd; docs/siwx.md describes them.
package siwx

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/pkg/siwx"
)

// DefaultSessionLifetime is how long a session lasts unless its message
// expires sooner.
const DefaultSessionLifetime = 7 * 24 * time.Hour

// Messages of the refusals this package makes itself (pkg/siwx words the
// message and signature refusals).
const (
	msgNonceToken   = "A nonce token is required: x-nonce-jwt: Bearer <token> from GET /auth/v1/nonce"
	msgNonceUnknown = "Nonce is unknown, already used or expired; ask for a new one"
	msgNonceProject = "Nonce was issued for another project"
	msgNonceDomain  = "Nonce was issued to another domain"
	msgSession      = "A valid sign-in session is required: Authorization: Bearer <token>"
	msgChainData    = "Chain %s of the message differs from the chain %s the request names"
	msgUnknownChain = "Chain %s is not one this latchd serves"
)

// Config configures a Service.
type Config struct {
	Nonces   NonceStore
	Store    *Store
	Verifier *siwx.Verifier
	// AllowDomain reports whether a project accepts sign-ins from domain
	// (host[:port]); latchd answers from the project's allowed origins.
	AllowDomain func(p *project.Project, domain string) bool
	// KnownChain reports whether latchd serves a CAIP-2 chain.
	KnownChain func(chainID string) bool
	// SessionLifetime bounds a session; 0 means DefaultSessionLifetime.
	SessionLifetime time.Duration
	// Now is the clock; nil means time.Now.
	Now    func() time.Time
	Logger *slog.Logger
}

// Service issues nonces, verifies sign-ins and keeps sessions. Its errors
// are *apperr.Error with the spec's or pkg/siwx's message.
type Service struct {
	cfg Config
}

// NewService returns a Service.
func NewService(cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.SessionLifetime <= 0 {
		cfg.SessionLifetime = DefaultSessionLifetime
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Service{cfg: cfg}
}

// Grant is GET /auth/v1/nonce's answer.
type Grant struct {
	Nonce string `json:"nonce"`
	Token string `json:"token"`
}

// IssueNonce issues a nonce for project p, bound to domain ("" for none:
// a request without Origin). Errors: unavailable (store down or full).
func (s *Service) IssueNonce(ctx context.Context, p *project.Project, domain string) (Grant, error) {
	// 96 random bits in hex (EIP-4361 asks for at least 8 alphanumerics).
	nonce := hex.EncodeToString(randomBytes(12))
	token := base64.RawURLEncoding.EncodeToString(randomBytes(32))
	n := Nonce{Value: nonce, ProjectID: p.ID, Domain: domain, ExpiresAt: s.cfg.Now().Add(NonceLifetime)}
	if err := s.cfg.Nonces.Put(ctx, token, n); err != nil {
		if errors.Is(err, ErrTooManyNonces) {
			return Grant{}, apperr.Errorf(apperr.RateLimited, "Too many sign-ins are under way; try again in a few minutes")
		}
		s.cfg.Logger.Error("siwx: store nonce", "err", err)
		return Grant{}, apperr.Errorf(apperr.Unavailable, "Sign-in is unavailable; try again")
	}
	return Grant{Nonce: nonce, Token: token}, nil
}

// AuthenticateRequest is POST /auth/v1/authenticate's body (AppKit's shape;
// walletInfo and clientId are accepted and not kept).
type AuthenticateRequest struct {
	Data       *MessageData    `json:"data,omitempty"`
	Message    string          `json:"message"`
	Signature  string          `json:"signature"`
	ClientID   *string         `json:"clientId,omitempty"`
	WalletInfo json.RawMessage `json:"walletInfo,omitempty"`
}

// MessageData is the part of AppKit's SIWXMessage.Data latchd compares with
// the message: the chain it was meant for, and the account.
type MessageData struct {
	ChainID        string `json:"chainId,omitempty"`
	AccountAddress string `json:"accountAddress,omitempty"`
}

// Authenticate spends the nonce of nonceToken, verifies the sign-in and
// stores a session. It returns the session and its bearer token.
// Errors: unauthorized (nonce token, nonce, signature, expired), forbidden
// (domain, URI, another project's nonce), invalid (malformed message,
// chain), unavailable (RPC or store).
func (s *Service) Authenticate(ctx context.Context, p *project.Project, nonceToken string, req AuthenticateRequest) (*Session, string, error) {
	if nonceToken == "" {
		return nil, "", apperr.Fieldf(apperr.Unauthorized, "x-nonce-jwt", msgNonceToken)
	}
	if req.Message == "" {
		return nil, "", apperr.Fieldf(apperr.Invalid, "message", "message is required")
	}
	if req.Signature == "" {
		return nil, "", apperr.Fieldf(apperr.Invalid, "signature", "signature is required")
	}
	// The nonce is spent first, whatever follows: a refused attempt cannot be retried with it.
	n, err := s.cfg.Nonces.Take(ctx, nonceToken)
	if errors.Is(err, ErrNonceUnknown) {
		return nil, "", apperr.Fieldf(apperr.Unauthorized, "nonce", msgNonceUnknown)
	}
	if err != nil {
		s.cfg.Logger.Error("siwx: spend nonce", "err", err)
		return nil, "", apperr.Errorf(apperr.Unavailable, "Sign-in is unavailable; try again")
	}
	if n.ProjectID != p.ID {
		return nil, "", apperr.Fieldf(apperr.Forbidden, "nonce", msgNonceProject)
	}
	m, err := siwx.ParseMessage(req.Message)
	if err != nil {
		return nil, "", mapError(err)
	}
	if n.Domain != "" && m.Domain != n.Domain {
		return nil, "", apperr.Fieldf(apperr.Forbidden, "domain", msgNonceDomain)
	}
	if err := s.checkChain(m, req.Data); err != nil {
		return nil, "", err
	}
	signIn, err := s.verify(ctx, p, req.Message, req.Signature, n.Value)
	if err != nil {
		return nil, "", err
	}
	return s.createSession(ctx, p, signIn)
}

func (s *Service) checkChain(m *siwx.Message, data *MessageData) error {
	if data != nil && data.ChainID != "" && data.ChainID != m.ChainID {
		return apperr.Fieldf(apperr.Invalid, "chainId", msgChainData, m.ChainID, data.ChainID)
	}
	// An EVM address may come in another letter case than the message's checksummed one.
	if data != nil && data.AccountAddress != "" && !(data.AccountAddress == m.Address || m.Namespace == siwx.EIP155 && strings.EqualFold(data.AccountAddress, m.Address)) {
		return apperr.Fieldf(apperr.Invalid, "accountAddress", "Account %s of the message differs from the account %s the request names", m.Address, data.AccountAddress)
	}
	if s.cfg.KnownChain != nil && !s.cfg.KnownChain(m.ChainID) {
		return apperr.Fieldf(apperr.Invalid, "chainId", msgUnknownChain, m.ChainID)
	}
	return nil
}

func (s *Service) verify(ctx context.Context, p *project.Project, message, signature, nonce string) (*siwx.SignIn, error) {
	signIn, err := s.cfg.Verifier.Verify(ctx, message, signature, siwx.Expect{
		Domain: func(d string) bool { return s.cfg.AllowDomain(p, d) },
		Nonce:  nonce,
	})
	if err != nil {
		return nil, s.logged(err)
	}
	return signIn, nil
}

// logged maps err, logging the cause of an unverifiable signature.
func (s *Service) logged(err error) error {
	if siwx.ReasonOf(err) == siwx.ReasonUnverifiable {
		if cause := errors.Unwrap(err); cause != nil {
			s.cfg.Logger.Warn("siwx: smart-account signature not checked", "err", cause)
		}
	}
	return mapError(err)
}

func (s *Service) createSession(ctx context.Context, p *project.Project, in *siwx.SignIn) (*Session, string, error) {
	now := s.cfg.Now()
	exp := now.Add(s.cfg.SessionLifetime)
	if m := in.Message; m.ExpirationTime != nil && m.ExpirationTime.Before(exp) {
		exp = *m.ExpirationTime
	}
	cacao, err := json.Marshal(in.CACAO())
	if err != nil {
		return nil, "", err
	}
	sess := &Session{
		ID: "ses_" + hex.EncodeToString(randomBytes(12)), ProjectID: p.ID, ChainID: in.Message.ChainID, Address: in.Message.Address,
		Domain: in.Message.Domain, URI: in.Message.URI, Nonce: in.Message.Nonce, Message: in.Raw, Signature: in.Signature,
		Kind: in.Kind, CACAO: string(cacao), CreatedAt: now, ExpiresAt: exp,
	}
	token := "siwx_" + base64.RawURLEncoding.EncodeToString(randomBytes(32))
	if err := s.cfg.Store.Create(ctx, sess, hashToken(token)); err != nil {
		return nil, "", fmt.Errorf("siwx: store session: %w", err)
	}
	return sess, token, nil
}

// Session returns the active session of a bearer token in project p.
// Errors: unauthorized (no token, unknown, revoked or expired).
func (s *Service) Session(ctx context.Context, p *project.Project, token string) (*Session, error) {
	if token == "" {
		return nil, apperr.Errorf(apperr.Unauthorized, msgSession)
	}
	sess, err := s.cfg.Store.ByToken(ctx, p.ID, hashToken(token))
	if errors.Is(err, errNoSession) {
		return nil, apperr.Errorf(apperr.Unauthorized, msgSession)
	}
	if err != nil {
		return nil, err
	}
	if !sess.Active(s.cfg.Now()) {
		return nil, apperr.Errorf(apperr.Unauthorized, "The sign-in session has ended; sign in again")
	}
	return sess, nil
}

// SignOut revokes the session of token. Errors: as Session.
func (s *Service) SignOut(ctx context.Context, p *project.Project, token string) error {
	sess, err := s.Session(ctx, p, token)
	if err != nil {
		return err
	}
	return s.cfg.Store.Revoke(ctx, p.ID, sess.ID, s.cfg.Now())
}

// Sessions lists the sessions of the account of token (same project, chain
// and address), newest first. Errors: as Session.
func (s *Service) Sessions(ctx context.Context, p *project.Project, token string) ([]*Session, error) {
	sess, err := s.Session(ctx, p, token)
	if err != nil {
		return nil, err
	}
	return s.cfg.Store.List(ctx, p.ID, sess.ChainID, sess.Address)
}

// Get returns session id when it belongs to the account of token.
// Errors: as Session; not_found for another account's or an unknown id.
func (s *Service) Get(ctx context.Context, p *project.Project, token, id string) (*Session, error) {
	sess, err := s.Session(ctx, p, token)
	if err != nil {
		return nil, err
	}
	other, err := s.cfg.Store.Get(ctx, p.ID, id)
	if errors.Is(err, errNoSession) || err == nil && (other.ChainID != sess.ChainID || other.Address != sess.Address) {
		return nil, apperr.Fieldf(apperr.NotFound, "id", "No session %q for this account", id)
	}
	return other, err
}

// Revoke revokes session id of the account of token. Errors: as Get.
func (s *Service) Revoke(ctx context.Context, p *project.Project, token, id string) error {
	if _, err := s.Get(ctx, p, token, id); err != nil {
		return err
	}
	return s.cfg.Store.Revoke(ctx, p.ID, id, s.cfg.Now())
}

// VerifyRequest is POST /auth/v1/siwx/verify's body: a sign-in a dapp's
// backend received, with the nonce that backend issued.
type VerifyRequest struct {
	Message   string `json:"message"`
	Signature string `json:"signature"`
	Nonce     string `json:"nonce"`
}

// Verify checks a sign-in for a backend that issues its own nonces: the
// same checks as Authenticate, against the given nonce, storing nothing.
func (s *Service) Verify(ctx context.Context, p *project.Project, req VerifyRequest) (*siwx.SignIn, error) {
	for field, v := range map[string]string{"message": req.Message, "signature": req.Signature, "nonce": req.Nonce} {
		if v == "" {
			return nil, apperr.Fieldf(apperr.Invalid, field, "%s is required", field)
		}
	}
	m, err := siwx.ParseMessage(req.Message)
	if err != nil {
		return nil, mapError(err)
	}
	if err := s.checkChain(m, nil); err != nil {
		return nil, err
	}
	return s.verify(ctx, p, req.Message, req.Signature, req.Nonce)
}

// Prune deletes sessions that ended more than a day ago.
func (s *Service) Prune(ctx context.Context) (int64, error) {
	return s.cfg.Store.Prune(ctx, s.cfg.Now().Add(-24*time.Hour))
}

// mapError turns pkg/siwx's refusals into latchd's error codes.
func mapError(err error) error {
	var e *siwx.Error
	if !errors.As(err, &e) {
		return err
	}
	code := apperr.Unauthorized
	switch e.Reason {
	case siwx.ReasonMalformed, siwx.ReasonChain:
		code = apperr.Invalid
	case siwx.ReasonDomain, siwx.ReasonURI:
		code = apperr.Forbidden
	case siwx.ReasonUnverifiable:
		code = apperr.Unavailable
	}
	return &apperr.Error{Code: code, Field: e.Field, Message: e.Message}
}

func hashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return b
}
