package names

import (
	"net/http"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/httpx"
)

// maxRegisterBody bounds a register request (message, signature, address).
const maxRegisterBody = 16 << 10

// Handler serves the profile routes (/v1/profile/*) of a Service.
type Handler struct {
	svc *Service
	// limit spends one of the client's registrations (each may cost an
	// eth_call) and reports when to retry if none are left; nil: no limit.
	limit func(*http.Request) (retryAfter time.Duration, ok bool)
}

// NewHandler returns the HTTP handlers of svc; limit (may be nil) is
// consulted before each registration.
func NewHandler(svc *Service, limit func(*http.Request) (time.Duration, bool)) *Handler {
	return &Handler{svc: svc, limit: limit}
}

// Register serves POST /v1/profile/account: body Registration, answer the
// new Record.
func (h *Handler) Register(w http.ResponseWriter, r *http.Request) {
	if h.limit != nil {
		if retry, ok := h.limit(r); !ok {
			httpx.RateLimited(w, r, retry, "name registrations")
			return
		}
	}
	var reg Registration
	if err := httpx.DecodeJSON(w, r, maxRegisterBody, &reg); err != nil {
		httpx.Error(w, r, err)
		return
	}
	rec, err := h.svc.Register(r.Context(), reg)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, rec)
}

// Lookup serves GET /v1/profile/account/{name}: the Record, or when the
// name is not registered [] with apiVersion=2 (what AppKit sends) and 404
// otherwise.
func (h *Handler) Lookup(w http.ResponseWriter, r *http.Request) {
	rec, err := h.svc.Lookup(r.Context(), r.PathValue("name"))
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	if rec == nil {
		h.notFound(w, r, "The name %s is not registered", r.PathValue("name"))
		return
	}
	httpx.JSON(w, http.StatusOK, rec)
}

// Reverse serves GET /v1/profile/reverse/{address}: the address's Records,
// [] (apiVersion=2) or 404 when it has none.
func (h *Handler) Reverse(w http.ResponseWriter, r *http.Request) {
	raw := r.PathValue("address")
	if !strings.HasPrefix(raw, "0x") || !common.IsHexAddress(raw) {
		httpx.Error(w, r, apperr.Fieldf(apperr.Invalid, "address", "%q is not an EVM address", clip(raw)))
		return
	}
	if _, err := httpx.Query(r, "sender", 128); err != nil {
		httpx.Error(w, r, err)
		return
	}
	recs, err := h.svc.Reverse(r.Context(), common.HexToAddress(raw))
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	if len(recs) == 0 {
		h.notFound(w, r, "%s has no name", raw)
		return
	}
	httpx.JSON(w, http.StatusOK, recs)
}

// Suggestions serves GET /v1/profile/suggestions/{name}?zone=: {suggestions}.
// A zone other than the deployment's is refused.
func (h *Handler) Suggestions(w http.ResponseWriter, r *http.Request) {
	zone, err := httpx.Query(r, "zone", 253)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	if zone != "" && strings.ToLower(zone) != h.svc.Zone() {
		httpx.Error(w, r, apperr.Fieldf(apperr.Invalid, "zone", "This server registers names in %s, not %s", h.svc.Zone(), clip(zone)))
		return
	}
	list, err := h.svc.Suggestions(r.Context(), r.PathValue("name"))
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, struct {
		Suggestions []Suggestion `json:"suggestions"`
	}{list})
}

func (h *Handler) notFound(w http.ResponseWriter, r *http.Request, format string, args ...any) {
	if r.URL.Query().Get("apiVersion") == "2" {
		httpx.JSON(w, http.StatusOK, []Record{})
		return
	}
	httpx.Error(w, r, apperr.Errorf(apperr.NotFound, format, args...))
}
