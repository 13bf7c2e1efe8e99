// Package social is latchd's social login for the embedded wallet: OAuth 2.0
// authorization code with PKCE (S256), state and nonce, through a popup.
// The frame records a login (Start, with the PKCE challenge; the verifier
// stays in the frame) and gets its begin URL on the frame origin; the page
// posts the popup there (Begin: the page's Origin must be the login's, and a
// cookie then binds the login to this browser) and latchd sends it on to the
// provider. The popup comes back to the callback page on the frame origin
// (Callback), which hands the result URI to the page only in the browser
// holding the cookie; the frame then exchanges it (Connect, with the
// verifier) for a session of internal/auth: the same wallet machinery as an
// e-mail login. docs/social.md is its contract.
package social

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/ratelimit"
	"github.com/latchkit/latch/internal/store"
)

// FlowTTL is how long a started social login may take, popup included.
const FlowTTL = 10 * time.Minute

// Paths on the frame origin.
const (
	// CallbackPath is the redirect URI registered at every provider.
	CallbackPath = "/auth/v1/social/callback"
	// ResultPath is the path of the result URI the callback hands the page
	// (never fetched: it carries state and code to CONNECT_SOCIAL).
	ResultPath = "/auth/v1/social/result"
	// LoadingPath is the page the widget opens the popup on, before it
	// knows the provider's URL (a popup opened later is blocked).
	LoadingPath = "/auth/v1/social/loading"
	// BeginPath is where the page posts the popup (or itself, in redirect
	// mode) to begin a started login: the binding cookie is set there.
	BeginPath = "/auth/v1/social/begin"
	// BindingCookiePrefix begins the name of a login's binding cookie (the
	// rest is BindingCookieName's), sent only to CallbackPath.
	BindingCookiePrefix = "latch_social_"
)

// Default limits per client IP.
const (
	IPStartLimit   = 30
	IPConnectLimit = 60
	IPWindow       = 10 * time.Minute
)

// User-facing messages.
const (
	MsgUnknownProvider = "Social provider must be google, github, apple, facebook, x or discord"
	MsgProviderOff     = "Social login with %s is not enabled for this project"
	MsgInvalidState    = "Invalid social login state: please start again"
	MsgExpired         = "This social login has expired: please start again"
	MsgUsed            = "This social login was already used: please start again"
	MsgOtherDevice     = "This social login was started on another device"
	MsgWrongVerifier   = "The PKCE code verifier does not match this social login"
	MsgInvalidResult   = "Invalid social login result"
	MsgProviderRefused = "The provider refused the login: %s"
	MsgInvalidIDToken  = "The provider's ID token is not valid: %s"
	MsgWrongNonce      = "The provider's ID token is not for this social login (nonce)"
	MsgNoOrigin        = "A social login starts from the embedded-wallet frame in a browser: the request has no Origin"
	MsgBeginOrigin     = "This social login can only be begun by the page that started it"
	MsgBegun           = "This social login was already begun: please start again"
	MsgOtherBrowser    = "This social login was started in another browser, or this browser refused its cookie: please start again"
)

// CredentialsFunc returns a project's client at a provider; ok is false when
// the provider has none for the project (it is then not offered).
type CredentialsFunc func(projectID, provider string) (c Credentials, ok bool)

// Config configures a Service.
type Config struct {
	DB   *store.DB
	Auth *auth.Service
	// Credentials are the providers' clients per project.
	Credentials CredentialsFunc
	// FrameURL is the frame origin's public URL: the callback is
	// FrameURL + CallbackPath. From configuration, never a request's Host.
	FrameURL func() string
	// LocalOrigins: latchd dev also admits local pages as parent origins.
	LocalOrigins bool
	// SecureCookies marks the binding cookie Secure (latchd serve, whose
	// frame origin is https).
	SecureCookies bool
	// HTTPClient calls the providers (a timeout is set when nil).
	HTTPClient *http.Client
	// Limiters; nil ones are in-memory at the default rates.
	IPStartLimiter, IPConnectLimiter ratelimit.Limiter
	// Farcaster is Sign In With Farcaster's ID registry; nil: not offered.
	Farcaster *FarcasterConfig
	// The Farcaster limiters (channel, client message, status poll); nil
	// ones are in-memory at the default rates.
	IPChannelLimiter, IPAuthenticateLimiter, IPStatusLimiter ratelimit.Limiter
	Now                                                      func() time.Time
	Logger                                                   *slog.Logger
}

// Service runs social logins. Its methods return *apperr.Error for what the
// caller can act on; other errors are internal.
type Service struct {
	cfg Config
	db  *store.DB
	// oidc caches the discovered OpenID Connect providers by issuer.
	mu   sync.Mutex
	oidc map[string]*oidc.Provider
}

// New returns a Service for cfg.
func New(cfg Config) (*Service, error) {
	if cfg.DB == nil || cfg.Auth == nil || cfg.Credentials == nil || cfg.FrameURL == nil {
		return nil, errors.New("social: Config needs DB, Auth, Credentials and FrameURL")
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 15 * time.Second}
	}
	if cfg.IPStartLimiter == nil {
		cfg.IPStartLimiter = ratelimit.NewMemory(IPStartLimit, IPWindow)
	}
	if cfg.IPConnectLimiter == nil {
		cfg.IPConnectLimiter = ratelimit.NewMemory(IPConnectLimit, IPWindow)
	}
	if cfg.IPChannelLimiter == nil {
		cfg.IPChannelLimiter = ratelimit.NewMemory(IPChannelLimit, IPWindow)
	}
	if cfg.IPAuthenticateLimiter == nil {
		cfg.IPAuthenticateLimiter = ratelimit.NewMemory(IPAuthenticateLimit, IPWindow)
	}
	if cfg.IPStatusLimiter == nil {
		cfg.IPStatusLimiter = ratelimit.NewMemory(IPStatusLimit, IPWindow)
	}
	if f := cfg.Farcaster; f != nil && (f.Caller == nil || f.RelayURL == nil || !strings.HasPrefix(f.Network, "eip155:")) {
		return nil, errors.New("social: FarcasterConfig needs an eip155 Network, a Caller and RelayURL")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Service{cfg: cfg, db: cfg.DB, oidc: map[string]*oidc.Provider{}}, nil
}

func (s *Service) now() time.Time { return s.cfg.Now() }

func ms(t time.Time) int64 { return t.UnixMilli() }

// Available lists the providers a project offers: those of its socials
// feature (every provider for latchd dev's project) that have credentials,
// in the spec's order. A provider without credentials is left out.
func (s *Service) Available(p *project.Project) []string {
	out := []string{}
	for _, name := range Names() {
		if !s.enabled(p, name) {
			continue
		}
		if _, ok := s.cfg.Credentials(p.ID, name); ok {
			out = append(out, name)
		}
	}
	return out
}

func (s *Service) enabled(p *project.Project, name string) bool {
	if p.Dev {
		return true
	}
	for _, n := range p.Features.Socials {
		if n == name {
			return true
		}
	}
	return false
}

// provider checks a provider name for a project and resolves its client.
func (s *Service) provider(p *project.Project, name string) (resolved, error) {
	d, ok := Lookup(name)
	if !ok {
		return resolved{}, apperr.Fieldf(apperr.Invalid, "provider", MsgUnknownProvider)
	}
	c, ok := s.cfg.Credentials(p.ID, name)
	if !ok || !s.enabled(p, name) {
		return resolved{}, apperr.Fieldf(apperr.Forbidden, "provider", MsgProviderOff, d.Title)
	}
	return resolve(d, c), nil
}

func (s *Service) redirectURL() string {
	return s.frameURL(CallbackPath)
}

func (s *Service) oauthConfig(r resolved, ep Endpoints) *oauth2.Config {
	return &oauth2.Config{
		ClientID: r.creds.ClientID, ClientSecret: r.creds.ClientSecret, RedirectURL: s.redirectURL(), Scopes: r.def.Scopes,
		Endpoint: oauth2.Endpoint{AuthURL: ep.AuthURL, TokenURL: ep.TokenURL, AuthStyle: ep.AuthStyle},
	}
}

func (s *Service) clientContext(ctx context.Context) context.Context {
	return oidc.ClientContext(context.WithValue(ctx, oauth2.HTTPClient, s.cfg.HTTPClient), s.cfg.HTTPClient)
}

// oidcProvider discovers an issuer once (and again after a failure).
func (s *Service) oidcProvider(ctx context.Context, issuer string) (*oidc.Provider, error) {
	s.mu.Lock()
	p := s.oidc[issuer]
	s.mu.Unlock()
	if p != nil {
		return p, nil
	}
	// Discovery outlives the request that triggered it: the provider keeps
	// the context for its key set.
	p, err := oidc.NewProvider(oidc.ClientContext(context.WithoutCancel(ctx), s.cfg.HTTPClient), issuer)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.oidc[issuer] = p
	s.mu.Unlock()
	return p, nil
}

// endpoints are r's OAuth endpoints, discovered for an OIDC provider.
func (s *Service) endpoints(ctx context.Context, r resolved) (Endpoints, *oidc.Provider, error) {
	if !r.def.OIDC() {
		return r.ep, nil, nil
	}
	op, err := s.oidcProvider(ctx, r.issuer)
	if err != nil {
		s.cfg.Logger.WarnContext(ctx, "social: OIDC discovery failed", "provider", r.def.Name, "issuer", r.issuer, "err", err)
		return Endpoints{}, nil, apperr.Errorf(apperr.Unavailable, "%s is not reachable; try again later", r.def.Title)
	}
	ep := op.Endpoint()
	return Endpoints{AuthURL: ep.AuthURL, TokenURL: ep.TokenURL, AuthStyle: ep.AuthStyle}, op, nil
}

// StartRequest begins a social login.
type StartRequest struct {
	Project  *project.Project
	Provider string
	DeviceID string
	// CodeChallenge is BASE64URL(SHA-256(verifier)) of the frame's PKCE
	// verifier (RFC 7636 S256).
	CodeChallenge string
	// ParentOrigin is the page that embeds the frame: the callback page
	// posts the result to it only. It must be one of the project's origins.
	ParentOrigin string
	// ReturnURL, for redirect mode (a Telegram mini-app, where no popup
	// opens): the page on ParentOrigin the callback sends the visitor back
	// to, with the result URI in its result_uri parameter. "" for a popup.
	ReturnURL string
	IP        string
}

// Start records a social login and returns its begin URL on the frame
// origin (BeginPath?state=…), where the page sends the popup by a form post
// (Begin). Errors: invalid (provider: MsgUnknownProvider, deviceId,
// codeChallenge, parentOrigin, returnUrl), forbidden (MsgProviderOff, an
// origin not the project's), rate_limited, unavailable (an OIDC provider's
// discovery failed).
func (s *Service) Start(ctx context.Context, r StartRequest) (string, error) {
	rp, err := s.provider(r.Project, r.Provider)
	if err != nil {
		return "", err
	}
	if err := validDeviceID(r.DeviceID); err != nil {
		return "", err
	}
	if !validChallenge(r.CodeChallenge) {
		return "", apperr.Fieldf(apperr.Invalid, "codeChallenge", "codeChallenge must be the 43-character base64url SHA-256 of the PKCE verifier (S256)")
	}
	origin, err := parseOrigin(r.ParentOrigin)
	if err != nil {
		return "", err
	}
	if !r.Project.AllowsOrigin(origin, s.cfg.LocalOrigins) {
		return "", apperr.Fieldf(apperr.Forbidden, "parentOrigin", "Origin not allowed: %s is not on this project's allowlist", truncateString(origin, 100))
	}
	r.ParentOrigin = origin
	if r.ReturnURL != "" {
		if r.ReturnURL, err = r.Project.CheckReturnURL(r.ReturnURL, origin); err != nil {
			return "", err
		}
	}
	if err := s.allow(ctx, s.cfg.IPStartLimiter, r.IP, "social logins per IP"); err != nil {
		return "", err
	}
	// Discovered now so that an unreachable provider is said to the
	// widget, not in the popup (Begin finds it cached).
	if _, _, err := s.endpoints(ctx, rp); err != nil {
		return "", err
	}
	state, nonce := newToken(), newToken()
	now := s.now()
	if _, err := s.db.Exec(ctx, `DELETE FROM social_flows WHERE expires_at < ?`, ms(now.Add(-time.Hour))); err != nil {
		return "", err
	}
	if _, err := s.db.Exec(ctx, `INSERT INTO social_flows (state_hash, project_id, provider, device_id, code_challenge, nonce, parent_origin, return_url, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, hash(state), r.Project.ID, rp.def.Name, r.DeviceID, r.CodeChallenge, nonce, r.ParentOrigin, r.ReturnURL, ms(now), ms(now.Add(FlowTTL))); err != nil {
		return "", err
	}
	return s.frameURL(BeginPath) + "?" + url.Values{"state": {state}}.Encode(), nil
}

func (s *Service) frameURL(path string) string {
	return strings.TrimRight(s.cfg.FrameURL(), "/") + path
}

// ConnectRequest finishes a social login with the callback's result URI.
type ConnectRequest struct {
	Project *project.Project
	// ResultURI is the callback's result (CONNECT_SOCIAL's uri).
	ResultURI    string
	CodeVerifier string
	DeviceID     string
	IP           string
	UserAgent    string
}

// ConnectResult is a social login's session and the account's name there.
type ConnectResult struct {
	Session  *auth.Session `json:"session"`
	Provider string        `json:"provider"`
	Username string        `json:"username"`
}

// Connect spends a flow: the result's state must be an unexpired, unused
// flow of this project and device that came back through the callback in
// the browser that began it (Callback checked the binding cookie there;
// this request comes from the frame, whose fetch cannot carry a SameSite
// cookie of the frame origin when the page is another site's), and the
// verifier must match its challenge; the code is exchanged at the provider (with the verifier), the
// person read (an ID token verified for issuer, audience, expiry and nonce,
// or the provider's user info), and a session opened (auth.SocialLogin,
// which links by a provider-verified e-mail). The flow is spent by the first
// try, right or wrong. Errors: invalid (the messages above), rate_limited,
// unauthorized (MsgProviderRefused, MsgInvalidIDToken, MsgWrongNonce).
func (s *Service) Connect(ctx context.Context, r ConnectRequest) (*ConnectResult, error) {
	res, err := s.parseResult(r.ResultURI)
	if err != nil {
		return nil, err
	}
	if err := validDeviceID(r.DeviceID); err != nil {
		return nil, err
	}
	if len(r.CodeVerifier) < 43 || len(r.CodeVerifier) > 128 {
		return nil, apperr.Fieldf(apperr.Invalid, "codeVerifier", "codeVerifier must be 43 to 128 characters (RFC 7636)")
	}
	if err := s.allow(ctx, s.cfg.IPConnectLimiter, r.IP, "social login checks per IP"); err != nil {
		return nil, err
	}
	f, err := s.spend(ctx, r.Project.ID, res.Get("state"), r.DeviceID)
	if err != nil {
		return nil, err
	}
	if subtle.ConstantTimeCompare([]byte(challengeOf(r.CodeVerifier)), []byte(f.challenge)) != 1 {
		return nil, apperr.Fieldf(apperr.Invalid, "codeVerifier", MsgWrongVerifier)
	}
	if e := res.Get("error"); e != "" {
		return nil, apperr.Errorf(apperr.Unauthorized, MsgProviderRefused, truncateString(or(res.Get("error_description"), e), 200))
	}
	code := res.Get("code")
	if code == "" {
		return nil, apperr.Fieldf(apperr.Invalid, "uri", MsgInvalidResult)
	}
	rp, err := s.provider(r.Project, f.provider)
	if err != nil {
		return nil, err
	}
	id, err := s.identify(ctx, rp, f, code, r.CodeVerifier)
	if err != nil {
		return nil, err
	}
	sess, err := s.cfg.Auth.SocialLogin(ctx, auth.SocialLoginRequest{ProjectID: r.Project.ID, DeviceID: r.DeviceID, UserAgent: r.UserAgent, Identity: id})
	if err != nil {
		return nil, err
	}
	return &ConnectResult{Session: sess, Provider: id.Provider, Username: id.Username}, nil
}

// parseResult checks that uri is a result URI of this latchd's frame origin.
func (s *Service) parseResult(uri string) (url.Values, error) {
	bad := apperr.Fieldf(apperr.Invalid, "uri", MsgInvalidResult)
	if len(uri) > 4096 {
		return nil, bad
	}
	u, err := url.Parse(uri)
	if err != nil {
		return nil, bad
	}
	base, err := url.Parse(s.frameURL(ResultPath))
	if err != nil || !strings.EqualFold(u.Scheme, base.Scheme) || !strings.EqualFold(u.Host, base.Host) || u.Path != base.Path {
		return nil, bad
	}
	q := u.Query()
	if st := q.Get("state"); st == "" || len(st) > 128 {
		return nil, apperr.Fieldf(apperr.Invalid, "uri", MsgInvalidState)
	}
	return q, nil
}

type flow struct {
	provider, challenge, nonce string
}

// spend marks the flow of state consumed and returns it.
func (s *Service) spend(ctx context.Context, projectID, state, deviceID string) (flow, error) {
	now := s.now()
	var f flow
	var project, device string
	var expires int64
	var returned, consumed *int64
	var bound []byte
	err := s.db.QueryRow(ctx, `SELECT project_id, provider, device_id, code_challenge, nonce, expires_at, returned_at, consumed_at, binding_hash FROM social_flows WHERE state_hash = ?`, hash(state)).
		Scan(&project, &f.provider, &device, &f.challenge, &f.nonce, &expires, &returned, &consumed, &bound)
	switch {
	case store.IsNoRows(err) || (err == nil && project != projectID):
		return flow{}, apperr.Fieldf(apperr.Invalid, "uri", MsgInvalidState)
	case err != nil:
		return flow{}, err
	case consumed != nil:
		return flow{}, apperr.Fieldf(apperr.Invalid, "uri", MsgUsed)
	case expires <= ms(now):
		return flow{}, apperr.Fieldf(apperr.Invalid, "uri", MsgExpired)
	case returned == nil || bound == nil:
		// A state that never came back through the callback in the browser
		// that began it: made up, or a code taken from elsewhere.
		return flow{}, apperr.Fieldf(apperr.Invalid, "uri", MsgInvalidState)
	case subtle.ConstantTimeCompare([]byte(device), []byte(deviceID)) != 1:
		return flow{}, apperr.Fieldf(apperr.Forbidden, "deviceId", MsgOtherDevice)
	}
	res, err := s.db.Exec(ctx, `UPDATE social_flows SET consumed_at = ? WHERE state_hash = ? AND consumed_at IS NULL`, ms(now), hash(state))
	if err != nil {
		return flow{}, err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return flow{}, apperr.Fieldf(apperr.Invalid, "uri", MsgUsed)
	}
	return f, nil
}

// identify exchanges the code and reads the person.
func (s *Service) identify(ctx context.Context, rp resolved, f flow, code, verifier string) (auth.SocialIdentity, error) {
	cctx := s.clientContext(ctx)
	ep, op, err := s.endpoints(ctx, rp)
	if err != nil {
		return auth.SocialIdentity{}, err
	}
	oc := s.oauthConfig(rp, ep)
	tok, err := oc.Exchange(cctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		return auth.SocialIdentity{}, apperr.Errorf(apperr.Unauthorized, MsgProviderRefused, exchangeReason(err))
	}
	if op == nil {
		id, err := rp.def.Profile(cctx, oc.Client(cctx, tok), rp.ep)
		if err != nil {
			s.cfg.Logger.WarnContext(ctx, "social: user info failed", "provider", rp.def.Name, "err", err)
			return auth.SocialIdentity{}, apperr.Errorf(apperr.Unavailable, "%s did not say who logged in; try again later", rp.def.Title)
		}
		id.Provider = rp.def.Name
		return id, nil
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return auth.SocialIdentity{}, apperr.Errorf(apperr.Unauthorized, MsgInvalidIDToken, "the provider sent none")
	}
	idt, err := op.Verifier(&oidc.Config{ClientID: rp.creds.ClientID, Now: s.now}).Verify(cctx, raw)
	if err != nil {
		return auth.SocialIdentity{}, apperr.Errorf(apperr.Unauthorized, MsgInvalidIDToken, err.Error())
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(f.nonce)) != 1 {
		return auth.SocialIdentity{}, apperr.Errorf(apperr.Unauthorized, MsgWrongNonce)
	}
	var c struct {
		Email             string   `json:"email"`
		EmailVerified     flexBool `json:"email_verified"`
		Name              string   `json:"name"`
		PreferredUsername string   `json:"preferred_username"`
	}
	if err := idt.Claims(&c); err != nil {
		return auth.SocialIdentity{}, apperr.Errorf(apperr.Unauthorized, MsgInvalidIDToken, err.Error())
	}
	return auth.SocialIdentity{Provider: rp.def.Name, Subject: idt.Subject, Email: c.Email, EmailVerified: bool(c.EmailVerified), Username: or(c.PreferredUsername, or(c.Name, c.Email))}, nil
}

// exchangeReason is the provider's own word for a refused exchange.
func exchangeReason(err error) string {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		if re.ErrorCode != "" {
			return truncateString(strings.TrimSpace(re.ErrorCode+" "+re.ErrorDescription), 200)
		}
		return fmt.Sprintf("HTTP %d", re.Response.StatusCode)
	}
	return "the token endpoint could not be reached"
}

func (s *Service) allow(ctx context.Context, l ratelimit.Limiter, key, what string) error {
	d, err := l.Allow(ctx, key)
	if err != nil {
		s.cfg.Logger.WarnContext(ctx, "social: rate limiter unavailable", "limit", what, "err", err)
		return apperr.Errorf(apperr.Unavailable, "Rate limiter unavailable; try again later")
	}
	if !d.Allowed {
		secs := int((d.RetryAfter + time.Second - 1) / time.Second)
		return &auth.RetryError{Err: apperr.Errorf(apperr.RateLimited, "Too many requests: %s; retry in %d s", what, secs), RetryAfter: d.RetryAfter}
	}
	return nil
}

func newToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func hash(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// challengeOf is RFC 7636's S256: BASE64URL(SHA256(verifier)).
func challengeOf(verifier string) string {
	h := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

func validChallenge(c string) bool {
	if len(c) != 43 {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(c)
	return err == nil
}

// validDeviceID mirrors internal/auth's rule; auth.SocialLogin checks it too.
func validDeviceID(id string) error {
	ok := len(id) >= 22 && len(id) <= 64
	for i := 0; ok && i < len(id); i++ {
		c := id[i]
		ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
	}
	if !ok {
		return apperr.Fieldf(apperr.Invalid, "deviceId", "deviceId must be 22 to 64 characters of A-Z a-z 0-9 - _")
	}
	return nil
}

// parseOrigin checks a page's origin (project.ParseOrigin's grammar).
func parseOrigin(o string) (string, error) {
	n, err := project.ParseOrigin(o)
	if err != nil {
		return "", apperr.Fieldf(apperr.Invalid, "parentOrigin", "parentOrigin must be an http(s) origin")
	}
	return n, nil
}

func truncateString(s string, n int) string {
	if len(s) > n {
		return strings.ToValidUTF8(s[:n], "")
	}
	return s
}
