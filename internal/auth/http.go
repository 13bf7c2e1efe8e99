package auth

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/i18n"
	"github.com/latchkit/latch/internal/project"
)

// maxBody is the body limit of every auth route.
const maxBody = 16 << 10

// Handler serves /auth/v1 (docs/auth-api.md). Its routes run behind the
// project guard, which puts the project in the request context.
type Handler struct {
	svc *Service
	// ClientIP is the rate-limit key of a request's client.
	clientIP func(*http.Request) string
	// localOrigins: latchd dev also admits local origins (GET /auth/v1/origins says so).
	localOrigins bool
}

// NewHandler returns the HTTP handlers of svc.
func NewHandler(svc *Service, clientIP func(*http.Request) string, localOrigins bool) *Handler {
	return &Handler{svc: svc, clientIP: clientIP, localOrigins: localOrigins}
}

func writeError(w http.ResponseWriter, r *http.Request, err error) {
	var re *RetryError
	if errors.As(err, &re) {
		secs := int((re.RetryAfter + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
	}
	httpx.Error(w, r, err)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Cache-Control", "no-store")
	httpx.JSON(w, http.StatusOK, v)
}

func bearer(r *http.Request) string {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(tok)
}

// mailContext is the context of a request that may send an e-mail: it
// carries the mail's locale, the body's locale field (the widget's; matched,
// so anything else is English) or else the request's Accept-Language.
func mailContext(r *http.Request, locale string) context.Context {
	return i18n.NewContext(r.Context(), i18n.FromRequest(r, locale))
}

// authed runs next with the request's session, or answers 401.
func (h *Handler) authed(next func(http.ResponseWriter, *http.Request, *project.Project, *Auth)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p := project.FromContext(r.Context())
		a, err := h.svc.Authenticate(r.Context(), p.ID, bearer(r))
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="latchd"`)
			writeError(w, r, err)
			return
		}
		next(w, r, p, a)
	}
}

// Start serves POST /auth/v1/email/start.
func (h *Handler) Start(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Email    string `json:"email"`
		DeviceID string `json:"deviceId"`
		Locale   string `json:"locale"`
	}
	if err := httpx.DecodeJSON(w, r, maxBody, &body); err != nil {
		writeError(w, r, err)
		return
	}
	res, err := h.svc.Start(mailContext(r, body.Locale), StartRequest{Project: project.FromContext(r.Context()), Email: body.Email, DeviceID: body.DeviceID, AccessToken: bearer(r), IP: h.clientIP(r)})
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, res)
}

// DeviceStatus serves POST /auth/v1/device/status.
func (h *Handler) DeviceStatus(w http.ResponseWriter, r *http.Request) {
	var body struct {
		RequestID string `json:"requestId"`
		DeviceID  string `json:"deviceId"`
	}
	if err := httpx.DecodeJSON(w, r, maxBody, &body); err != nil {
		writeError(w, r, err)
		return
	}
	st, err := h.svc.DeviceStatus(r.Context(), project.FromContext(r.Context()).ID, body.RequestID, body.DeviceID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, map[string]string{"status": st})
}

// Verify serves POST /auth/v1/email/verify.
func (h *Handler) Verify(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Email    string `json:"email"`
		DeviceID string `json:"deviceId"`
		OTP      string `json:"otp"`
	}
	if err := httpx.DecodeJSON(w, r, maxBody, &body); err != nil {
		writeError(w, r, err)
		return
	}
	sess, err := h.svc.Verify(r.Context(), VerifyRequest{Project: project.FromContext(r.Context()), Email: body.Email, DeviceID: body.DeviceID, OTP: body.OTP, IP: h.clientIP(r), UserAgent: r.UserAgent()})
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, sess)
}

// Refresh serves POST /auth/v1/session/refresh.
func (h *Handler) Refresh(w http.ResponseWriter, r *http.Request) {
	var body struct {
		RefreshToken string `json:"refreshToken"`
		DeviceID     string `json:"deviceId"`
	}
	if err := httpx.DecodeJSON(w, r, maxBody, &body); err != nil {
		writeError(w, r, err)
		return
	}
	sess, err := h.svc.Refresh(r.Context(), project.FromContext(r.Context()).ID, body.RefreshToken, body.DeviceID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, sess)
}

// Me serves GET /auth/v1/email/me.
func (h *Handler) Me(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		writeJSON(w, map[string]any{"user": User{ID: a.UserID, Email: a.Email}, "sessionId": a.SessionID, "deviceId": a.DeviceID})
	})(w, r)
}

// Sessions serves GET /auth/v1/sessions.
func (h *Handler) Sessions(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		list, err := h.svc.ListSessions(r.Context(), a)
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, map[string]any{"sessions": list})
	})(w, r)
}

// Revoke serves POST /auth/v1/sessions/{id}/revoke.
func (h *Handler) Revoke(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		if err := h.svc.RevokeSession(r.Context(), a, r.PathValue("id")); err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, map[string]bool{"revoked": true})
	})(w, r)
}

// PutShares serves PUT /auth/v1/shares.
func (h *Handler) PutShares(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		var body StoreRequest
		if err := httpx.DecodeJSON(w, r, maxBody, &body); err != nil {
			writeError(w, r, err)
			return
		}
		if err := h.svc.StoreShares(r.Context(), a, body); err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, map[string]bool{"stored": true})
	})(w, r)
}

// FetchShares serves POST /auth/v1/shares/fetch.
func (h *Handler) FetchShares(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		var body struct {
			DeviceID        string `json:"deviceId"`
			IncludeRecovery bool   `json:"includeRecovery"`
		}
		if err := httpx.DecodeJSON(w, r, maxBody, &body); err != nil {
			writeError(w, r, err)
			return
		}
		shares, err := h.svc.FetchShares(r.Context(), a, body.DeviceID, body.IncludeRecovery)
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, shares)
	})(w, r)
}

// ChangeEmail serves POST /auth/v1/email/change.
func (h *Handler) ChangeEmail(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		var body struct {
			NewEmail string `json:"newEmail"`
			Locale   string `json:"locale"`
		}
		if err := httpx.DecodeJSON(w, r, maxBody, &body); err != nil {
			writeError(w, r, err)
			return
		}
		action, err := h.svc.ChangeEmail(mailContext(r, body.Locale), p, a, body.NewEmail, h.clientIP(r))
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, map[string]string{"action": action})
	})(w, r)
}

// ChangeEmailPrimary serves POST /auth/v1/email/change/primary.
func (h *Handler) ChangeEmailPrimary(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		var body struct {
			OTP    string `json:"otp"`
			Locale string `json:"locale"`
		}
		if err := httpx.DecodeJSON(w, r, maxBody, &body); err != nil {
			writeError(w, r, err)
			return
		}
		action, err := h.svc.ChangeEmailPrimary(mailContext(r, body.Locale), p, a, body.OTP, h.clientIP(r))
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, map[string]string{"action": action})
	})(w, r)
}

// ChangeEmailSecondary serves POST /auth/v1/email/change/secondary.
func (h *Handler) ChangeEmailSecondary(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		var body struct {
			OTP      string `json:"otp"`
			DeviceID string `json:"deviceId"`
		}
		if err := httpx.DecodeJSON(w, r, maxBody, &body); err != nil {
			writeError(w, r, err)
			return
		}
		email, sess, err := h.svc.ChangeEmailSecondary(r.Context(), p, a, body.OTP, body.DeviceID, h.clientIP(r), r.UserAgent())
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, map[string]any{"newEmail": email, "session": sess})
	})(w, r)
}

// Origins serves GET /auth/v1/origins: the origins allowed to embed the frame.
func (h *Handler) Origins(w http.ResponseWriter, r *http.Request) {
	p := project.FromContext(r.Context())
	origins := p.Origins
	if origins == nil {
		origins = []string{}
	}
	writeJSON(w, map[string]any{"allowedOrigins": origins, "localOrigins": h.localOrigins || p.Dev})
}
