package siwx

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/pkg/siwx"
)

// maxBody bounds a request body (a message is at most 8 KiB, plus its signature).
const maxBody = 32 << 10

// Handler serves the sign-in routes (docs/siwx.md). They run behind the
// project guard, which puts the project in the request context.
type Handler struct {
	svc *Service
	// limit, when set, is asked before each nonce, authenticate and verify
	// request (a verification may cost an eth_call upstream): false refuses
	// it with 429 and the wait.
	limit func(*http.Request) (retryAfter time.Duration, ok bool)
}

// NewHandler returns the HTTP handlers of svc; limit may be nil.
func NewHandler(svc *Service, limit func(*http.Request) (time.Duration, bool)) *Handler {
	return &Handler{svc: svc, limit: limit}
}

// limited answers 429 when the request is over its limit.
func (h *Handler) limited(w http.ResponseWriter, r *http.Request) bool {
	if h.limit == nil {
		return false
	}
	retry, ok := h.limit(r)
	if !ok {
		httpx.RateLimited(w, r, retry, "sign-in requests per IP")
	}
	return !ok
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Cache-Control", "no-store")
	httpx.JSON(w, http.StatusOK, v)
}

// bearerOf reads "Bearer <token>" from header name.
func bearerOf(r *http.Request, name string) string {
	scheme, tok, ok := strings.Cut(r.Header.Get(name), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(tok)
}

// Nonce serves GET /auth/v1/nonce → {nonce, token}. The nonce is bound to
// the page's domain (its Origin's host) when the request has an Origin.
func (h *Handler) Nonce(w http.ResponseWriter, r *http.Request) {
	if h.limited(w, r) {
		return
	}
	p := project.FromContext(r.Context())
	domain := ""
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || u.Host == "" {
			httpx.Error(w, r, apperr.Fieldf(apperr.Invalid, "Origin", "Origin %q is not a URL origin", o))
			return
		}
		domain = u.Host
	}
	g, err := h.svc.IssueNonce(r.Context(), p, domain)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	writeJSON(w, g)
}

// Authenticate serves POST /auth/v1/authenticate → {token}.
func (h *Handler) Authenticate(w http.ResponseWriter, r *http.Request) {
	if h.limited(w, r) {
		return
	}
	var req AuthenticateRequest
	if err := httpx.DecodeJSON(w, r, maxBody, &req); err != nil {
		httpx.Error(w, r, err)
		return
	}
	_, token, err := h.svc.Authenticate(r.Context(), project.FromContext(r.Context()), bearerOf(r, "X-Nonce-Jwt"), req)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	writeJSON(w, map[string]string{"token": token})
}

// session runs next with the request's session, or answers 401.
func (h *Handler) session(w http.ResponseWriter, r *http.Request) (*project.Project, string, *Session, bool) {
	p := project.FromContext(r.Context())
	tok := bearerOf(r, "Authorization")
	s, err := h.svc.Session(r.Context(), p, tok)
	if err != nil {
		w.Header().Set("WWW-Authenticate", `Bearer realm="latchd"`)
		httpx.Error(w, r, err)
		return nil, "", nil, false
	}
	return p, tok, s, true
}

// Me serves GET /auth/v1/me: the session's account in AppKit's
// SessionAccount shape.
func (h *Handler) Me(w http.ResponseWriter, r *http.Request) {
	p, _, s, ok := h.session(w, r)
	if !ok {
		return
	}
	writeJSON(w, sessionAccount(p, s))
}

// SignOut serves POST /auth/v1/sign-out: it revokes the session.
func (h *Handler) SignOut(w http.ResponseWriter, r *http.Request) {
	p := project.FromContext(r.Context())
	if err := h.svc.SignOut(r.Context(), p, bearerOf(r, "Authorization")); err != nil {
		w.Header().Set("WWW-Authenticate", `Bearer realm="latchd"`)
		httpx.Error(w, r, err)
		return
	}
	writeJSON(w, struct{}{})
}

// Sessions serves GET /auth/v1/siwx/sessions: the signed-in account's sessions.
func (h *Handler) Sessions(w http.ResponseWriter, r *http.Request) {
	p, tok, _, ok := h.session(w, r)
	if !ok {
		return
	}
	list, err := h.svc.Sessions(r.Context(), p, tok)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	out := make([]SessionJSON, 0, len(list))
	now := h.svc.cfg.Now()
	for _, s := range list {
		out = append(out, sessionJSON(s, now))
	}
	writeJSON(w, map[string]any{"sessions": out})
}

// Get serves GET /auth/v1/siwx/sessions/{id}.
func (h *Handler) Get(w http.ResponseWriter, r *http.Request) {
	p, tok, _, ok := h.session(w, r)
	if !ok {
		return
	}
	s, err := h.svc.Get(r.Context(), p, tok, r.PathValue("id"))
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	writeJSON(w, sessionJSON(s, h.svc.cfg.Now()))
}

// Revoke serves POST /auth/v1/siwx/sessions/{id}/revoke.
func (h *Handler) Revoke(w http.ResponseWriter, r *http.Request) {
	p, tok, _, ok := h.session(w, r)
	if !ok {
		return
	}
	if err := h.svc.Revoke(r.Context(), p, tok, r.PathValue("id")); err != nil {
		httpx.Error(w, r, err)
		return
	}
	writeJSON(w, struct{}{})
}

// Verify serves POST /auth/v1/siwx/verify: a backend's check of a sign-in
// against the nonce it issued.
func (h *Handler) Verify(w http.ResponseWriter, r *http.Request) {
	if h.limited(w, r) {
		return
	}
	var req VerifyRequest
	if err := httpx.DecodeJSON(w, r, maxBody, &req); err != nil {
		httpx.Error(w, r, err)
		return
	}
	in, err := h.svc.Verify(r.Context(), project.FromContext(r.Context()), req)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	writeJSON(w, map[string]any{"valid": true, "address": in.Message.Address, "chainId": in.Message.ChainID, "kind": in.Kind,
		"data": messageData(in.Message), "cacao": in.CACAO()})
}

// SessionAccount is GET /auth/v1/me's answer (AppKit's shape; email and
// appKitAccount are never set by latchd).
type SessionAccount struct {
	Aud            string `json:"aud"`
	Iss            string `json:"iss"`
	Exp            int64  `json:"exp"`
	ProjectIDKey   string `json:"projectIdKey"`
	Sub            string `json:"sub"`
	Address        string `json:"address"`
	ChainID        any    `json:"chainId"` // a number for eip155, else the CAIP-2 reference
	ChainNamespace string `json:"chainNamespace"`
	CAIP2Network   string `json:"caip2Network"`
	URI            string `json:"uri"`
	Domain         string `json:"domain"`
	ProjectUUID    string `json:"projectUuid"`
	ProfileUUID    string `json:"profileUuid"`
	Nonce          string `json:"nonce"`
}

func sessionAccount(p *project.Project, s *Session) SessionAccount {
	ns, ref, _ := strings.Cut(s.ChainID, ":")
	var chainID any = ref
	if n, err := strconv.ParseUint(ref, 10, 64); err == nil && ns == siwx.EIP155 {
		chainID = n
	}
	return SessionAccount{
		Aud: s.URI, Iss: "latchd", Exp: s.ExpiresAt.Unix(), ProjectIDKey: p.ID, Sub: "did:pkh:" + s.ChainID + ":" + s.Address,
		Address: s.Address, ChainID: chainID, ChainNamespace: ns, CAIP2Network: s.ChainID, URI: s.URI, Domain: s.Domain,
		ProjectUUID: p.ID, ProfileUUID: profileUUID(p.ID, s.ChainID, s.Address), Nonce: s.Nonce,
	}
}

// profileUUID is a stable id of one account in one project, shaped as a UUID (v8, name-based).
func profileUUID(projectID, chainID, address string) string {
	h := sha256.Sum256([]byte(projectID + "\x00" + chainID + "\x00" + address))
	h[6] = h[6]&0x0f | 0x80
	h[8] = h[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// SessionJSON is a session as the session routes show it: the spec's
// session fields (data, message, signature, cacao) and its state.
type SessionJSON struct {
	ID        string          `json:"id"`
	Data      Data            `json:"data"`
	Message   string          `json:"message"`
	Signature string          `json:"signature"`
	CACAO     json.RawMessage `json:"cacao"`
	CreatedAt time.Time       `json:"createdAt"`
	ExpiresAt time.Time       `json:"expiresAt"`
	RevokedAt *time.Time      `json:"revokedAt,omitempty"`
	Active    bool            `json:"active"`
}

// Data is the sign-in message's fields (AppKit's SIWXMessage.Data).
type Data struct {
	AccountAddress string   `json:"accountAddress"`
	ChainID        string   `json:"chainId"`
	Domain         string   `json:"domain"`
	URI            string   `json:"uri"`
	Version        string   `json:"version"`
	Nonce          string   `json:"nonce"`
	Statement      string   `json:"statement,omitempty"`
	IssuedAt       string   `json:"issuedAt"`
	ExpirationTime string   `json:"expirationTime,omitempty"`
	NotBefore      string   `json:"notBefore,omitempty"`
	RequestID      string   `json:"requestId,omitempty"`
	Resources      []string `json:"resources,omitempty"`
}

func messageData(m *siwx.Message) Data {
	d := Data{AccountAddress: m.Address, ChainID: m.ChainID, Domain: m.Domain, URI: m.URI, Version: m.Version, Nonce: m.Nonce,
		Statement: m.Statement, IssuedAt: m.IssuedAt.UTC().Format(time.RFC3339Nano), Resources: m.Resources}
	if m.ExpirationTime != nil {
		d.ExpirationTime = m.ExpirationTime.UTC().Format(time.RFC3339Nano)
	}
	if m.NotBefore != nil {
		d.NotBefore = m.NotBefore.UTC().Format(time.RFC3339Nano)
	}
	if m.RequestID != nil {
		d.RequestID = *m.RequestID
	}
	return d
}

func sessionJSON(s *Session, now time.Time) SessionJSON {
	out := SessionJSON{ID: s.ID, Message: s.Message, Signature: s.Signature, CACAO: json.RawMessage(s.CACAO),
		CreatedAt: s.CreatedAt.UTC(), ExpiresAt: s.ExpiresAt.UTC(), RevokedAt: s.RevokedAt, Active: s.Active(now)}
	if m, err := siwx.ParseMessage(s.Message); err == nil {
		out.Data = messageData(m)
	}
	if out.RevokedAt != nil {
		t := out.RevokedAt.UTC()
		out.RevokedAt = &t
	}
	return out
}
