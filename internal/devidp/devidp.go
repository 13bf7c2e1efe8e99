// Package devidp is latchd dev's development identity provider: a small
// OAuth 2.0 / OpenID Connect server with test users that stands in for each
// social provider that has no credentials, so the whole social login (popup,
// PKCE, state, nonce, ID token or user info) runs on 127.0.0.1 with no other
// host. Its pages say plainly that they are not the real provider. latchd
// serve never mounts it.
package devidp

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/latchkit/latch/internal/social"
)

// PathPrefix is where latchd dev mounts the provider: PathPrefix +
// "{provider}/…".
const PathPrefix = "/dev/idp/"

// Lifetimes of codes and access tokens.
const (
	CodeTTL   = time.Minute
	AccessTTL = 10 * time.Minute
)

// User is a test user.
type User struct {
	Subject       string
	Name          string
	Email         string
	EmailVerified bool
}

// TestUsers are offered on every provider's page; their subject is the
// provider's name + "-" + the Subject here, so each provider has its own
// accounts.
var TestUsers = []User{
	{Subject: "ada", Name: "Ada Lovelace", Email: "ada@example.com", EmailVerified: true},
	{Subject: "bob", Name: "Bob Unverified", Email: "bob@example.com", EmailVerified: false},
	{Subject: "cy", Name: "Cy No-Email"},
}

// Server is the development identity provider.
type Server struct {
	// base is the API's public URL (the provider lives under PathPrefix).
	base   func() string
	secret string
	key    *rsa.PrivateKey
	kid    string
	now    func() time.Time

	handler http.Handler

	mu     sync.Mutex
	codes  map[string]*grant
	tokens map[string]*grant
}

type grant struct {
	provider, clientID, redirectURI, challenge, nonce string
	user                                              User
	expires                                           time.Time
}

// New returns a provider whose public address is base() + PathPrefix. Its
// client secret and signing key are made at start.
func New(base func() string) (*Server, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	s := &Server{base: base, secret: token(), key: key, kid: token()[:16], now: time.Now, codes: map[string]*grant{}, tokens: map[string]*grant{}}
	s.handler = s.routes()
	return s, nil
}

func token() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ClientID is the client id latchd uses at the provider for name.
func ClientID(name string) string { return "latch-dev-" + name }

func (s *Server) root(name string) string {
	return strings.TrimRight(s.base(), "/") + PathPrefix + name
}

// Credentials are latchd's client at the stand-in for provider name: an
// OpenID Connect issuer for google and apple, OAuth 2.0 endpoints with the
// provider's own user-info shape for the others.
func (s *Server) Credentials(name string) (social.Credentials, bool) {
	d, ok := social.Lookup(name)
	if !ok {
		return social.Credentials{}, false
	}
	root := s.root(name)
	c := social.Credentials{ClientID: ClientID(name), ClientSecret: s.secret}
	if d.OIDC() {
		c.Issuer = root
		return c, true
	}
	c.AuthURL, c.TokenURL, c.UserURL = root+"/authorize", root+"/token", root+"/user"
	if d.Endpoints.EmailsURL != "" {
		c.EmailsURL = root + "/user/emails"
	}
	return c, true
}

// Handler serves PathPrefix + "{provider}/…".
func (s *Server) Handler() http.Handler { return s.handler }

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	p := PathPrefix + "{provider}"
	mux.HandleFunc("GET "+p+"/.well-known/openid-configuration", s.discovery)
	mux.HandleFunc("GET "+p+"/jwks", s.jwks)
	mux.HandleFunc("GET "+p+"/authorize", s.authorizePage)
	mux.HandleFunc("POST "+p+"/authorize", s.authorize)
	mux.HandleFunc("POST "+p+"/token", s.token)
	mux.HandleFunc("GET "+p+"/user", s.user)
	mux.HandleFunc("GET "+p+"/user/emails", s.emails)
	unknown := func(w http.ResponseWriter, r *http.Request) {
		if _, ok := s.definition(w, r); ok {
			http.Error(w, "the development identity provider has no such endpoint", http.StatusNotFound)
		}
	}
	mux.HandleFunc("GET "+p, s.index)
	mux.HandleFunc("POST "+p, func(w http.ResponseWriter, r *http.Request) {
		if d, ok := s.definition(w, r); ok {
			http.Error(w, "post to "+PathPrefix+d.Name+"/authorize or "+PathPrefix+d.Name+"/token", http.StatusBadRequest)
		}
	})
	mux.HandleFunc(p+"/{rest...}", unknown)
	return mux
}

func (s *Server) definition(w http.ResponseWriter, r *http.Request) (*social.Definition, bool) {
	d, ok := social.Lookup(r.PathValue("provider"))
	if !ok {
		http.Error(w, "the development identity provider stands in for "+strings.Join(social.Names(), ", ")+" only", http.StatusBadRequest)
	}
	return d, ok
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// oauthError answers RFC 6749 §5.2's error shape.
func oauthError(w http.ResponseWriter, status int, code, desc string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

// index says what the stand-in for one provider serves.
func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	d, ok := s.definition(w, r)
	if !ok {
		return
	}
	c, _ := s.Credentials(d.Name)
	users := []map[string]any{}
	for _, u := range TestUsers {
		users = append(users, map[string]any{"subject": d.Name + "-" + u.Subject, "name": u.Name, "email": u.Email, "emailVerified": u.EmailVerified})
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"provider": d.Name, "standsInFor": d.Title, "note": "latchd dev's development identity provider: test users only, never the real " + d.Title,
		"clientId": c.ClientID, "issuer": c.Issuer, "authUrl": c.AuthURL, "tokenUrl": c.TokenURL, "userUrl": c.UserURL, "emailsUrl": c.EmailsURL, "testUsers": users,
	})
}

func (s *Server) discovery(w http.ResponseWriter, r *http.Request) {
	d, ok := s.definition(w, r)
	if !ok {
		return
	}
	if !d.OIDC() {
		http.Error(w, d.Title+" is not an OpenID Connect provider", http.StatusNotFound)
		return
	}
	root := s.root(d.Name)
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer": root, "authorization_endpoint": root + "/authorize", "token_endpoint": root + "/token", "jwks_uri": root + "/jwks",
		"response_types_supported": []string{"code"}, "subject_types_supported": []string{"public"},
		"id_token_signing_alg_values_supported": []string{"RS256"}, "code_challenge_methods_supported": []string{"S256"},
		"token_endpoint_auth_methods_supported": []string{"client_secret_basic", "client_secret_post"},
	})
}

func (s *Server) jwks(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.definition(w, r); !ok {
		return
	}
	writeJSON(w, http.StatusOK, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &s.key.PublicKey, KeyID: s.kid, Algorithm: "RS256", Use: "sig"}}})
}

// authRequest is a checked authorization request.
type authRequest struct {
	def                                                  *social.Definition
	clientID, redirectURI, state, challenge, nonce, mode string
}

// checkAuthRequest checks what the page and its form carry: the client, a
// redirect URI of latchd's callback on a local host, S256 PKCE and a state.
func (s *Server) checkAuthRequest(d *social.Definition, q url.Values) (authRequest, string) {
	a := authRequest{def: d, clientID: q.Get("client_id"), redirectURI: q.Get("redirect_uri"), state: q.Get("state"),
		challenge: q.Get("code_challenge"), nonce: q.Get("nonce"), mode: q.Get("response_mode")}
	u, err := url.Parse(a.redirectURI)
	switch {
	case a.clientID != ClientID(d.Name):
		return a, "unknown client_id"
	case q.Get("response_type") != "code":
		return a, "response_type must be code"
	case err != nil || u.Path != social.CallbackPath || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost" && u.Hostname() != "::1"):
		return a, "redirect_uri must be latchd's social callback on a local host"
	case q.Get("code_challenge_method") != "S256" || len(a.challenge) != 43:
		return a, "PKCE with code_challenge_method=S256 is required"
	case a.state == "":
		return a, "state is required"
	}
	return a, ""
}

func (s *Server) authorizePage(w http.ResponseWriter, r *http.Request) {
	d, ok := s.definition(w, r)
	if !ok {
		return
	}
	a, bad := s.checkAuthRequest(d, r.URL.Query())
	pageHeaders(w, "")
	if bad != "" {
		w.WriteHeader(http.StatusBadRequest)
	}
	authorizePage.Execute(w, map[string]any{"T": pageText(r), "Title": d.Title, "Error": bad, "Users": TestUsers, "Query": r.URL.Query(), "Action": PathPrefix + d.Name + "/authorize", "Req": a})
}

func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	d, ok := s.definition(w, r)
	if !ok {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	a, bad := s.checkAuthRequest(d, r.PostForm)
	if bad != "" {
		http.Error(w, bad, http.StatusBadRequest)
		return
	}
	cb, _ := url.Parse(a.redirectURI)
	q := cb.Query()
	q.Set("state", a.state)
	if r.PostForm.Get("deny") != "" {
		q.Set("error", "access_denied")
		q.Set("error_description", "The test user declined")
	} else {
		u, err := chosenUser(d.Name, r.PostForm)
		if err != "" {
			http.Error(w, err, http.StatusBadRequest)
			return
		}
		code := token()
		s.mu.Lock()
		s.codes[code] = &grant{provider: d.Name, clientID: a.clientID, redirectURI: a.redirectURI, challenge: a.challenge, nonce: a.nonce, user: u, expires: s.now().Add(CodeTTL)}
		s.mu.Unlock()
		q.Set("code", code)
	}
	if a.mode == "form_post" {
		// As Apple does when asked for name and e-mail: the browser posts the
		// answer to the callback.
		nonce := pageHeaders(w, "")
		formPostPage.Execute(w, map[string]any{"T": pageText(r), "Action": cb.Scheme + "://" + cb.Host + cb.Path, "Fields": q, "Nonce": nonce})
		return
	}
	cb.RawQuery = q.Encode()
	http.Redirect(w, r, cb.String(), http.StatusFound)
}

// chosenUser is the test user the form picked, or the one it described.
func chosenUser(provider string, f url.Values) (User, string) {
	if pick := f.Get("user"); pick != "" {
		for _, u := range TestUsers {
			if u.Subject == pick {
				u.Subject = provider + "-" + u.Subject
				return u, ""
			}
		}
		return User{}, "no such test user"
	}
	email := strings.TrimSpace(f.Get("email"))
	name := strings.TrimSpace(f.Get("name"))
	if email == "" && name == "" {
		return User{}, "pick a test user or give a name or an e-mail"
	}
	if len(email) > 254 || len(name) > 100 || (email != "" && !strings.Contains(email, "@")) {
		return User{}, "the e-mail must contain @ (254 characters at most) and the name 100 characters at most"
	}
	h := sha256.Sum256([]byte(strings.ToLower(email) + "\x00" + name))
	return User{Subject: provider + "-" + hex.EncodeToString(h[:8]), Name: or(name, email), Email: email, EmailVerified: f.Get("verified") != ""}, ""
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	d, ok := s.definition(w, r)
	if !ok {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "bad form")
		return
	}
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	} else {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	}
	if id != ClientID(d.Name) || subtle.ConstantTimeCompare([]byte(secret), []byte(s.secret)) != 1 {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "unknown client or wrong secret")
		return
	}
	if r.PostForm.Get("grant_type") != "authorization_code" {
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "only authorization_code")
		return
	}
	code := r.PostForm.Get("code")
	s.mu.Lock()
	g := s.codes[code]
	delete(s.codes, code) // one use, right or wrong
	s.mu.Unlock()
	switch {
	case g == nil || g.provider != d.Name:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "unknown or used code")
		return
	case s.now().After(g.expires):
		oauthError(w, http.StatusBadRequest, "invalid_grant", "expired code")
		return
	case r.PostForm.Get("redirect_uri") != g.redirectURI:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "redirect_uri differs from the authorization request's")
		return
	case challengeOf(r.PostForm.Get("code_verifier")) != g.challenge:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "code_verifier does not match the code_challenge")
		return
	}
	access := token()
	g.expires = s.now().Add(AccessTTL)
	s.mu.Lock()
	s.tokens[access] = g
	s.mu.Unlock()
	out := map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": int(AccessTTL / time.Second)}
	if d.OIDC() {
		idt, err := s.idToken(d, g)
		if err != nil {
			oauthError(w, http.StatusInternalServerError, "server_error", err.Error())
			return
		}
		out["id_token"] = idt
	}
	writeJSON(w, http.StatusOK, out)
}

func challengeOf(verifier string) string {
	h := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

func (s *Server) idToken(d *social.Definition, g *grant) (string, error) {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: s.key}, (&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", s.kid))
	if err != nil {
		return "", err
	}
	now := s.now()
	claims := map[string]any{
		"iss": s.root(d.Name), "aud": g.clientID, "sub": g.user.Subject, "iat": now.Unix(), "exp": now.Add(AccessTTL).Unix(),
		"nonce": g.nonce, "name": g.user.Name,
	}
	if g.user.Email != "" {
		claims["email"], claims["email_verified"] = g.user.Email, g.user.EmailVerified
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		return "", err
	}
	return jws.CompactSerialize()
}

// bearer finds the grant of the request's access token.
func (s *Server) bearer(w http.ResponseWriter, r *http.Request, provider string) (*grant, bool) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	g := s.tokens[tok]
	s.mu.Unlock()
	if !ok || g == nil || g.provider != provider || s.now().After(g.expires) {
		oauthError(w, http.StatusUnauthorized, "invalid_token", "unknown or expired access token")
		return nil, false
	}
	return g, true
}

// user answers in the shape of the provider's own user-info endpoint.
func (s *Server) user(w http.ResponseWriter, r *http.Request) {
	d, ok := s.definition(w, r)
	if !ok {
		return
	}
	g, ok := s.bearer(w, r, d.Name)
	if !ok {
		return
	}
	u := g.user
	switch d.Name {
	case social.GitHub:
		writeJSON(w, http.StatusOK, map[string]any{"id": numericID(u.Subject), "login": u.Subject, "name": u.Name, "email": nullable(u.Email)})
	case social.Discord:
		writeJSON(w, http.StatusOK, map[string]any{"id": fmt.Sprint(numericID(u.Subject)), "username": u.Subject, "global_name": u.Name, "email": nullable(u.Email), "verified": u.EmailVerified})
	case social.Facebook:
		out := map[string]any{"id": fmt.Sprint(numericID(u.Subject)), "name": u.Name}
		if u.Email != "" {
			out["email"] = u.Email
		}
		writeJSON(w, http.StatusOK, out)
	case social.X:
		writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"id": fmt.Sprint(numericID(u.Subject)), "username": u.Subject, "name": u.Name}})
	default:
		http.Error(w, d.Title+" has no user-info endpoint here: read the ID token", http.StatusNotFound)
	}
}

// emails answers GitHub's /user/emails.
func (s *Server) emails(w http.ResponseWriter, r *http.Request) {
	d, ok := s.definition(w, r)
	if !ok {
		return
	}
	if d.Name != social.GitHub {
		http.NotFound(w, r)
		return
	}
	g, ok := s.bearer(w, r, d.Name)
	if !ok {
		return
	}
	list := []map[string]any{}
	if g.user.Email != "" {
		list = append(list, map[string]any{"email": g.user.Email, "primary": true, "verified": g.user.EmailVerified, "visibility": "private"})
	}
	writeJSON(w, http.StatusOK, list)
}

// numericID is a stable number for a subject (GitHub's ids are numbers).
func numericID(subject string) uint64 {
	h := sha256.Sum256([]byte(subject))
	var n uint64
	for _, b := range h[:6] {
		n = n<<8 | uint64(b)
	}
	return n
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
