package app

import (
	"net/http"
	"strings"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/frameapp"
	"github.com/latchkit/latch/internal/httpx"
)

func handleFrameHealth(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte("ok\n"))
}

// frameApp is the embedded-wallet frame's handler (internal/frameapp): its
// page under the project's CSP and its scripts. The frame calls the API at
// its public URL (--api-url, or the listener's address). Built when the
// frame listener is mounted, once the API listener has its address.
func (m *Main) frameApp() *frameapp.Handler {
	h, err := frameapp.New(frameapp.Config{Projects: m.Projects, APIURL: m.PublicAPIURL(), DevOrigins: m.Config.Dev, Files: m.frameFiles, SmartAccounts: m.bundler.accounts})
	if err != nil {
		// Only a broken build gets here (--api-url is checked when parsed).
		m.Logger.Error("frame: cannot serve the frame build", "err", err)
		return nil
	}
	return h
}

// frameRoute adapts one of the frame handler's methods to the route table.
func frameRoute(serve func(*frameapp.Handler, http.ResponseWriter, *http.Request)) func(*Main) http.Handler {
	return func(m *Main) http.Handler {
		h := m.frameApp()
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if h == nil {
				http.Error(w, "frame build is broken: see latchd's log", http.StatusInternalServerError)
				return
			}
			serve(h, w, r)
		})
	}
}

// admitFrame wraps a project route the frame calls too (route.alsoFrame):
// a request from the frame's own origin passes the frame-origin guard (a
// known projectId, CORS for the frame) into h; any other request goes
// through the route's own guard (guarded). What h itself checks (the RPC
// proxy's method allowlist and per-project limit) applies to both.
func (m *Main) admitFrame(guarded, h http.Handler) http.Handler {
	frame := m.requireFrameOrigin(h)
	origin := m.frameOrigin()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" && strings.EqualFold(o, origin) {
			frame.ServeHTTP(w, r)
			return
		}
		guarded.ServeHTTP(w, r)
	})
}

// alsoFramePaths are the request paths of the routes marked alsoFrame,
// read from the route table by init (the table refers to framePreflight,
// so a variable initialised from the table would be a cycle).
var alsoFramePaths = map[string]bool{}

func init() {
	for _, rt := range routes {
		if _, path, ok := strings.Cut(rt.pattern, " "); ok && rt.alsoFrame {
			alsoFramePaths[strings.TrimSuffix(path, "{$}")] = true
		}
	}
}

// framePreflight answers the frame origin's CORS preflights for the routes
// marked alsoFrame (POST with a JSON body, and the session's Authorization
// where the route reads it); every other preflight goes to
// next, the project guard's, which admits only the project's origins.
func (m *Main) framePreflight(next http.Handler) http.Handler {
	origin := m.frameOrigin()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o := r.Header.Get("Origin")
		if r.Method != http.MethodOptions || o == "" || !strings.EqualFold(o, origin) || r.Header.Get("Access-Control-Request-Method") == "" || !alsoFramePaths[r.URL.Path] {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", "Origin")
		if _, err := m.Projects.Lookup(r.Context(), r.URL.Query().Get("projectId")); err != nil {
			httpx.Error(w, r, err)
			return
		}
		if method := r.Header.Get("Access-Control-Request-Method"); method != http.MethodPost {
			httpx.Error(w, r, apperr.Fieldf(apperr.Forbidden, "Access-Control-Request-Method", "Method %q is not allowed", method))
			return
		}
		// Authorization carries the frame's session (a name registration).
		for _, h := range strings.Split(r.Header.Get("Access-Control-Request-Headers"), ",") {
			if h = strings.ToLower(strings.TrimSpace(h)); h != "" && h != "content-type" && h != "authorization" {
				httpx.Error(w, r, apperr.Fieldf(apperr.Forbidden, "Access-Control-Request-Headers", "Header %q is not allowed", h))
				return
			}
		}
		setFrameCORS(w, o)
		w.Header().Set("Access-Control-Allow-Methods", "POST, OPTIONS")
		if h := r.Header.Get("Access-Control-Request-Headers"); h != "" {
			w.Header().Set("Access-Control-Allow-Headers", h)
		}
		w.Header().Set("Access-Control-Max-Age", "600")
		w.WriteHeader(http.StatusNoContent)
	})
}
