package project

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/httpx"
)

// Guard checks the projectId of API calls and answers CORS for the project's
// allowed origins.
type Guard struct {
	Projects *Service
	// DevOrigins also allows http://localhost:* and http://127.0.0.1:* for every
	// project (latchd dev).
	DevOrigins bool
	// AdminToken is the operator's bearer token for RequireAdmin; empty
	// refuses every admin request.
	AdminToken string
}

// corsAllowHeaders are the request headers the widget and AppKit-compatible
// clients send; a preflight asking for anything else is refused.
var corsAllowHeaders = map[string]bool{
	"content-type": true, "authorization": true, "x-nonce-jwt": true, "x-otp": true,
	"x-sdk-type": true, "x-sdk-version": true, "x-project-id": true,
}

const corsAllowMethods = "GET, POST, PUT, DELETE, OPTIONS"

// Require wraps next so that it runs only for a known projectId and, when the
// request carries an Origin, one the project allows. next finds the project
// with FromContext.
func (g *Guard) Require(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := g.Projects.Lookup(r.Context(), r.URL.Query().Get("projectId"))
		origin := r.Header.Get("Origin")
		if err != nil {
			// Let a browser read why its project id was refused, so the widget can
			// show "Invalid project id" rather than a bare network error.
			if origin != "" {
				setCORS(w, origin)
			}
			httpx.Error(w, r, err)
			return
		}
		if origin != "" {
			if !p.AllowsOrigin(origin, g.DevOrigins) {
				httpx.Error(w, r, originError(origin))
				return
			}
			setCORS(w, origin)
		}
		next.ServeHTTP(w, r.WithContext(NewContext(r.Context(), p)))
	})
}

// Messages of RequireAdmin's refusals.
const (
	msgAdminDisabled = "Admin routes are disabled: no admin token configured"
	msgAdminAuth     = "A valid admin token is required: Authorization: Bearer <token>"
)

// RequireAdmin wraps an operator's route about one project: it runs next
// only after Require accepts the project and the request carries
// Authorization: Bearer <AdminToken>. Without an admin token configured
// every request is refused (403).
func (g *Guard) RequireAdmin(next http.Handler) http.Handler {
	return g.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if g.AdminToken == "" {
			httpx.Error(w, r, apperr.Fieldf(apperr.Forbidden, "Authorization", msgAdminDisabled))
			return
		}
		if !BearerMatches(r, g.AdminToken) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="latchd"`)
			httpx.Error(w, r, apperr.Fieldf(apperr.Unauthorized, "Authorization", msgAdminAuth))
			return
		}
		next.ServeHTTP(w, r)
	}))
}

// BearerMatches reports whether r carries Authorization: Bearer <token>.
// Both tokens are hashed before a constant-time comparison, so that it leaks
// neither the token nor its length.
func BearerMatches(r *http.Request, token string) bool {
	scheme, got, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	a := sha256.Sum256([]byte(strings.TrimSpace(got)))
	b := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// Preflight answers CORS preflight requests before routing: the mux would
// answer OPTIONS with 405. Paths under /dev/ (latchd dev only) carry no
// projectId and allow only local origins.
func (g *Guard) Preflight(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if r.Method != http.MethodOptions || origin == "" || r.Header.Get("Access-Control-Request-Method") == "" {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", "Origin")
		if strings.HasPrefix(r.URL.Path, "/dev/") {
			if !g.DevOrigins || !isLocalOrigin(origin) {
				httpx.Error(w, r, originError(origin))
				return
			}
		} else {
			p, err := g.Projects.Lookup(r.Context(), r.URL.Query().Get("projectId"))
			if err != nil {
				httpx.Error(w, r, err)
				return
			}
			if !p.AllowsOrigin(origin, g.DevOrigins) {
				httpx.Error(w, r, originError(origin))
				return
			}
		}
		for _, h := range strings.Split(r.Header.Get("Access-Control-Request-Headers"), ",") {
			h = strings.ToLower(strings.TrimSpace(h))
			if h != "" && !corsAllowHeaders[h] {
				httpx.Error(w, r, apperr.Fieldf(apperr.Forbidden, "Access-Control-Request-Headers", "Header %q is not allowed", h))
				return
			}
		}
		setCORS(w, origin)
		w.Header().Set("Access-Control-Allow-Methods", corsAllowMethods)
		if h := r.Header.Get("Access-Control-Request-Headers"); h != "" {
			w.Header().Set("Access-Control-Allow-Headers", h)
		}
		w.Header().Set("Access-Control-Max-Age", "600")
		w.WriteHeader(http.StatusNoContent)
	})
}

// LocalOnly wraps the dev-only routes: CORS for local origins, refusal of others.
func (g *Guard) LocalOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" {
			if !isLocalOrigin(origin) {
				httpx.Error(w, r, originError(origin))
				return
			}
			setCORS(w, origin)
		}
		next.ServeHTTP(w, r)
	})
}

func originError(origin string) error {
	if len(origin) > 100 {
		origin = origin[:100] + "…"
	}
	return apperr.Fieldf(apperr.Forbidden, "Origin", "Origin not allowed: %s is not on this project's allowlist", origin)
}

func setCORS(w http.ResponseWriter, origin string) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Add("Vary", "Origin")
	h.Set("Access-Control-Expose-Headers", "Retry-After, X-Request-Id")
}

// FeatureConfig is one entry of GET /appkit/v1/config (api-shapes §1.3).
type FeatureConfig struct {
	ID        string   `json:"id"`
	IsEnabled bool     `json:"isEnabled"`
	Config    []string `json:"config"`
}

// RemoteFeatures maps the project's features to the config API's list. Config
// is never null: a null config makes the client fall back to its local options,
// and the project's settings must win.
func (f Features) RemoteFeatures() []FeatureConfig {
	social := []string{}
	if f.Email {
		social = append(social, "email")
	}
	social = append(social, f.Socials...)
	return []FeatureConfig{
		{ID: "social_login", IsEnabled: len(social) > 0, Config: social},
		{ID: "swap", IsEnabled: len(f.Swaps) > 0, Config: nonNil(f.Swaps)},
		{ID: "onramp", IsEnabled: len(f.Onramp) > 0, Config: nonNil(f.Onramp)},
		{ID: "activity", IsEnabled: f.Activity, Config: []string{}},
		{ID: "reown_branding", IsEnabled: f.Branding, Config: []string{}},
		{ID: "send", IsEnabled: f.Send, Config: []string{}},
		{ID: "receive", IsEnabled: f.Receive, Config: []string{}},
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// The configuration API (api-shapes §1.3–1.6): each handler runs behind
// Guard.Require, which puts the project in the request context.

// HandleConfig serves GET /appkit/v1/config: the project's remote features.
func HandleConfig(w http.ResponseWriter, r *http.Request) {
	p := FromContext(r.Context())
	w.Header().Set("Cache-Control", "private, max-age=60")
	httpx.JSON(w, http.StatusOK, map[string]any{"features": p.Features.RemoteFeatures()})
}

// HandleLimits serves GET /appkit/v1/project-limits. A self-hosted latchd
// has no plans; the limits that exist are rate limits, answered with 429
// where they apply.
func HandleLimits(w http.ResponseWriter, r *http.Request) {
	httpx.JSON(w, http.StatusOK, map[string]any{"planLimits": map[string]any{
		"tier": "none", "isAboveRpcLimit": false, "isAboveMauLimit": false,
	}})
}

// HandleOrigins serves GET /projects/v1/origins: the project's allowlist.
func HandleOrigins(w http.ResponseWriter, r *http.Request) {
	p := FromContext(r.Context())
	httpx.JSON(w, http.StatusOK, map[string]any{"allowedOrigins": nonNil(p.Origins)})
}

// HandleAnalyticsConfig serves GET /getAnalyticsConfig.
func HandleAnalyticsConfig(w http.ResponseWriter, r *http.Request) {
	p := FromContext(r.Context())
	httpx.JSON(w, http.StatusOK, map[string]any{"isAnalyticsEnabled": p.Analytics})
}
