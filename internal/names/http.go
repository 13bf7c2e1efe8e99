package names

import (
	"errors"
	"net"
	"net/http"
	"strconv"
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
	cfg HandlerConfig
}

// HandlerConfig is what the register route needs from outside the names domain.
type HandlerConfig struct {
	// Limit spends one of the client's registration attempts (each may
	// cost an eth_call) and reports when to retry if none are left; nil: no limit.
	Limit func(*http.Request) (retryAfter time.Duration, ok bool)
	// Account returns the Latch account (auth user id) of the request's
	// auth session, sent by the embedded wallet's frame as
	// Authorization: Bearer <access token>; "" without a session. An error
	// is a token that is not a live session's (apperr.Unauthorized) or a
	// failure. nil: no request has a session.
	Account func(*http.Request) (string, error)
	// ClientIP is the request's client IP (behind trusted proxies); nil: the peer's address.
	ClientIP func(*http.Request) string
}

// NewHandler returns the HTTP handlers of svc.
func NewHandler(svc *Service, cfg HandlerConfig) *Handler {
	return &Handler{svc: svc, cfg: cfg}
}

// Register serves POST /v1/profile/account: body Registration, answer the
// new Record. The request must come with the auth session of the account
// being registered (spec §5, the auth connector): the embedded wallet's
// frame sends it; a page alone cannot.
func (h *Handler) Register(w http.ResponseWriter, r *http.Request) {
	if h.cfg.Limit != nil {
		if retry, ok := h.cfg.Limit(r); !ok {
			httpx.RateLimited(w, r, retry, "name registrations")
			return
		}
	}
	var reg Registration
	if err := httpx.DecodeJSON(w, r, maxRegisterBody, &reg); err != nil {
		httpx.Error(w, r, err)
		return
	}
	caller := Caller{IP: r.RemoteAddr}
	if h.cfg.ClientIP != nil {
		caller.IP = h.cfg.ClientIP(r)
	} else if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		caller.IP = host
	}
	if h.cfg.Account != nil {
		account, err := h.cfg.Account(r)
		if err != nil {
			httpx.Error(w, r, err)
			return
		}
		caller.Account = account
	}
	rec, err := h.svc.Register(r.Context(), reg, caller)
	if err != nil {
		var re *RetryError
		if errors.As(err, &re) {
			w.Header().Set("Retry-After", strconv.Itoa(max(int((re.RetryAfter+time.Second-1)/time.Second), 1)))
		}
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
