// Package frameapp serves the embedded-wallet frame: the static build of
// web/packages/frame, embedded in the latchd binary, on the frame origin.
//
// The page is served per project (its ?projectId=), with a Content-Security-
// Policy whose frame-ancestors are that project's allowed origins, so a page
// on any other origin cannot embed the frame; scripts come only from the
// frame origin (hashed files, no inline code) and the frame may connect only
// to itself and latchd's API. The build is embedded from dist/, which holds a
// placeholder until `make build` has built the frame; then the page answers
// 503 rather than a page that does not work.
package frameapp

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/project"
)

//go:embed all:dist
var dist embed.FS

// apiURLPlaceholder is what the frame's index.html carries in its
// <meta name="latch-api"> until the handler writes latchd's API URL there.
const apiURLPlaceholder = "__LATCH_API_URL__"

// MsgNotBuilt is the 503 answer of a latchd built without the frame.
const MsgNotBuilt = "frame not built: run make build"

// Projects finds a project by id, as project.Service.Lookup does.
type Projects interface {
	Lookup(ctx context.Context, id string) (*project.Project, error)
}

// Config configures the frame's handler.
type Config struct {
	Projects Projects
	// APIURL is latchd's API base URL as the browser reaches it: the frame
	// calls it, and the CSP's connect-src allows its origin.
	APIURL string
	// DevOrigins lets http://localhost and http://127.0.0.1 pages on any
	// port embed the frame (latchd dev), as the API's guard admits them.
	DevOrigins bool
	// Files replaces the embedded build (tests); nil uses it.
	Files fs.FS
	// SmartAccounts are the networks with an ERC-4337 bundler: the page
	// carries them in <meta name="latch-smart-accounts"> (JSON), so the
	// frame knows each one's EntryPoint and account factory.
	SmartAccounts []SmartAccountNetwork
}

// SmartAccountNetwork is a network whose embedded wallets may use a smart
// account: its chain id, EntryPoint v0.7 and LatchSmartAccountFactory.
type SmartAccountNetwork struct {
	ChainID    uint64 `json:"chainId"`
	EntryPoint string `json:"entryPoint"`
	Factory    string `json:"factory"`
}

// Handler serves the frame's page and scripts.
type Handler struct {
	projects   Projects
	devOrigins bool
	apiOrigin  string
	page       []byte // index.html with the API URL written in; nil: not built
	assets     fs.FS  // the build's assets/ directory
}

// New returns the handler of the build in cfg.Files (default: the embedded
// one). A build without index.html (the committed placeholder) is not an
// error: the handler then answers 503.
func New(cfg Config) (*Handler, error) {
	u, err := url.Parse(cfg.APIURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return nil, fmt.Errorf("frame: the API URL %q must be an absolute http(s) URL", cfg.APIURL)
	}
	files := cfg.Files
	if files == nil {
		if files, err = fs.Sub(dist, "dist"); err != nil {
			return nil, err
		}
	}
	h := &Handler{projects: cfg.Projects, devOrigins: cfg.DevOrigins, apiOrigin: u.Scheme + "://" + u.Host}
	index, err := fs.ReadFile(files, "index.html")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return h, nil
	case err != nil:
		return nil, fmt.Errorf("frame: read index.html: %w", err)
	}
	if !strings.Contains(string(index), apiURLPlaceholder) {
		return nil, fmt.Errorf("frame: index.html has no %s placeholder", apiURLPlaceholder)
	}
	page := strings.Replace(string(index), apiURLPlaceholder, html.EscapeString(strings.TrimRight(cfg.APIURL, "/")), 1)
	h.page = []byte(withSmartAccounts(page, cfg.SmartAccounts))
	if h.assets, err = fs.Sub(files, "assets"); err != nil {
		return nil, err
	}
	return h, nil
}

// withSmartAccounts adds the smart-account networks' meta tag after the
// API URL's (the first tag after the written-in URL's).
func withSmartAccounts(page string, nets []SmartAccountNetwork) string {
	if nets == nil {
		nets = []SmartAccountNetwork{}
	}
	js, _ := json.Marshal(nets) // plain structs: cannot fail
	i := strings.Index(page, `name="latch-api"`)
	if i < 0 {
		return page
	}
	end := strings.Index(page[i:], ">")
	if end < 0 {
		return page
	}
	at := i + end + 1
	return page[:at] + `<meta name="latch-smart-accounts" content="` + html.EscapeString(string(js)) + `">` + page[at:]
}

// Built reports whether the handler has a frame build to serve.
func (h *Handler) Built() bool { return h.page != nil }

// ServePage serves GET /?projectId=…: the frame's page under the project's CSP.
// A missing or malformed projectId is 400, an unknown project 404.
func (h *Handler) ServePage(w http.ResponseWriter, r *http.Request) {
	if h.page == nil {
		http.Error(w, MsgNotBuilt, http.StatusServiceUnavailable)
		return
	}
	p, err := h.projects.Lookup(r.Context(), r.URL.Query().Get("projectId"))
	if err != nil {
		status := http.StatusInternalServerError
		msg := "internal error"
		switch apperr.Code(err) {
		case apperr.Unauthorized, apperr.Invalid:
			status, msg = http.StatusBadRequest, errMessage(err)
		case apperr.Forbidden, apperr.NotFound:
			status, msg = http.StatusNotFound, errMessage(err)
		}
		http.Error(w, msg, status)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	hd.Set("Content-Security-Policy", h.csp(p))
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	// Per project and per latchd configuration: never cached by a proxy.
	hd.Set("Cache-Control", "no-store")
	w.Write(h.page)
}

func errMessage(err error) string {
	var e *apperr.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}

// CSP returns the Content-Security-Policy of the frame page for p.
func (h *Handler) csp(p *project.Project) string {
	// Only origins in canonical form go into the policy: a stored value
	// with a quote, a semicolon or a space would add a source or a
	// directive (latchd refuses to start with one, and Lookup's projects
	// hold only valid ones; this holds whatever reaches here).
	ancestors := append(make([]string, 0, len(p.Origins)+2), project.ValidOrigins(p.Origins)...)
	if h.devOrigins {
		ancestors = append(ancestors, "http://localhost:*", "http://127.0.0.1:*")
	}
	frameAncestors := "'none'"
	if len(ancestors) > 0 {
		frameAncestors = strings.Join(ancestors, " ")
	}
	connect := "'self'"
	if h.apiOrigin != "" {
		connect += " " + h.apiOrigin
	}
	return strings.Join([]string{
		"default-src 'none'",
		"script-src 'self'",
		"connect-src " + connect,
		"frame-ancestors " + frameAncestors,
		"base-uri 'none'",
		"form-action 'none'",
	}, "; ")
}

// ServeAsset serves GET /assets/{file}: the build's hashed scripts, cached
// for a year (a new build has new names).
func (h *Handler) ServeAsset(w http.ResponseWriter, r *http.Request) {
	if h.page == nil {
		http.Error(w, MsgNotBuilt, http.StatusServiceUnavailable)
		return
	}
	name := r.PathValue("file")
	if name == "" || name != path.Base(name) || strings.HasPrefix(name, ".") {
		http.NotFound(w, r)
		return
	}
	b, err := fs.ReadFile(h.assets, name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	hd := w.Header()
	switch path.Ext(name) {
	case ".js":
		hd.Set("Content-Type", "text/javascript; charset=utf-8")
	case ".css":
		hd.Set("Content-Type", "text/css; charset=utf-8")
	default:
		hd.Set("Content-Type", "application/octet-stream")
	}
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Cache-Control", "public, max-age=31536000, immutable")
	hd.Set("Cross-Origin-Resource-Policy", "same-origin")
	w.Write(b)
}
