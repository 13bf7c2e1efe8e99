package explorer

import (
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/latchkit/latch/internal/httpx"
)

// Cache lifetimes of the explorer responses.
const (
	walletsCacheControl  = "public, max-age=300"                 // the registry changes with a deploy, not per request
	storedCacheControl   = "public, max-age=31536000, immutable" // a stored logo is fixed for its id
	monogramCacheControl = "public, max-age=86400"               // monograms and embedded icons: short, so a logo stored later (or a new release's icon) takes over
)

// Handler serves the explorer routes.
type Handler struct {
	svc   *Service
	names Names
}

// NewHandler returns the explorer's HTTP handlers. names resolves asset image
// ids to display names for monograms; it may be nil.
func NewHandler(svc *Service, names Names) *Handler {
	return &Handler{svc: svc, names: names}
}

// Wallets serves GET /getWallets: a page of the wallet registry.
func (h *Handler) Wallets(w http.ResponseWriter, r *http.Request) {
	f, err := ParseFilter(r.URL.Query())
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	page, err := h.svc.Search(f)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "application/json")
	hdr.Set("Cache-Control", walletsCacheControl)
	// One Write of the whole body: a body larger than the connection's 4 KiB
	// buffer then goes out in one or two syscalls instead of one per 4 KiB,
	// which is where a search spent most of its time under load.
	bp := pageBuffers.Get().(*[]byte)
	body := page.AppendJSON((*bp)[:0])
	hdr.Set("Content-Length", strconv.Itoa(len(body)))
	if _, err := w.Write(body); err != nil {
		slog.DebugContext(r.Context(), "write response", "err", err)
	}
	if cap(body) <= maxPooledPage {
		*bp = body
		pageBuffers.Put(bp)
	}
}

// maxPooledPage keeps one unusually large page from pinning its buffer in the pool.
const maxPooledPage = 256 << 10

var pageBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// Image serves GET /getWalletImage/{id} and the asset, currency and token
// image routes: the image of kind with the path's id.
func (h *Handler) Image(kind string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		img, err := h.svc.Image(r.Context(), kind, r.PathValue("id"), h.names)
		if err != nil {
			httpx.Error(w, r, err)
			return
		}
		hdr := w.Header()
		hdr.Set("ETag", img.ETag)
		hdr.Set("Cache-Control", monogramCacheControl)
		if img.Stored {
			hdr.Set("Cache-Control", storedCacheControl)
		}
		// Images come from latchd's origin: never let a browser treat one as
		// a page, nor run anything an SVG might carry when opened directly.
		hdr.Set("X-Content-Type-Options", "nosniff")
		hdr.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
		if etagMatches(r.Header.Get("If-None-Match"), img.ETag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		hdr.Set("Content-Type", img.ContentType)
		if _, err := w.Write(img.Data); err != nil {
			slog.DebugContext(r.Context(), "write image", "err", err)
		}
	})
}

// etagMatches applies If-None-Match with the weak comparison RFC 9110 §13.1.2
// prescribes for it: a W/ prefix is ignored, and * matches any image.
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}
