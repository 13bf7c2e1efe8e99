package social

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"html/template"
	"net/http"
	"strconv"
	"time"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/i18n"
	"github.com/latchkit/latch/internal/project"
)

const maxBody = 16 << 10

// Handler serves the social login routes (docs/social.md): the frame's
// start and connect under /auth/v1 (behind the frame-origin guard, which
// puts the project in the context), and the popup's pages on the frame
// origin.
type Handler struct {
	svc      *Service
	clientIP func(*http.Request) string
}

// NewHandler returns the HTTP handlers of svc.
func NewHandler(svc *Service, clientIP func(*http.Request) string) *Handler {
	return &Handler{svc: svc, clientIP: clientIP}
}

func writeError(w http.ResponseWriter, r *http.Request, err error) {
	var re *auth.RetryError
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

// Start serves POST /auth/v1/social/start.
func (h *Handler) Start(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Provider      string `json:"provider"`
		DeviceID      string `json:"deviceId"`
		CodeChallenge string `json:"codeChallenge"`
		ParentOrigin  string `json:"parentOrigin"`
		ReturnURL     string `json:"returnUrl"`
	}
	if err := httpx.DecodeJSON(w, r, maxBody, &body); err != nil {
		writeError(w, r, err)
		return
	}
	uri, err := h.svc.Start(r.Context(), StartRequest{
		Project: project.FromContext(r.Context()), Provider: body.Provider, DeviceID: body.DeviceID,
		CodeChallenge: body.CodeChallenge, ParentOrigin: body.ParentOrigin, ReturnURL: body.ReturnURL, IP: h.clientIP(r),
	})
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, map[string]string{"uri": uri})
}

// Connect serves POST /auth/v1/social/connect.
func (h *Handler) Connect(w http.ResponseWriter, r *http.Request) {
	var body struct {
		URI          string `json:"uri"`
		CodeVerifier string `json:"codeVerifier"`
		DeviceID     string `json:"deviceId"`
	}
	if err := httpx.DecodeJSON(w, r, maxBody, &body); err != nil {
		writeError(w, r, err)
		return
	}
	res, err := h.svc.Connect(r.Context(), ConnectRequest{
		Project: project.FromContext(r.Context()), ResultURI: body.URI, CodeVerifier: body.CodeVerifier, DeviceID: body.DeviceID,
		IP: h.clientIP(r), UserAgent: r.UserAgent(),
	})
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, res)
}

// Providers serves GET /auth/v1/social/providers: the providers the project
// offers (those with credentials), in the spec's order.
func (h *Handler) Providers(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, map[string]any{"providers": h.svc.Available(project.FromContext(r.Context()))})
}

// pageHeaders keep the popup's pages out of caches and frames, and allow
// only the page's own inline script (by nonce).
func pageHeaders(w http.ResponseWriter) string {
	b := make([]byte, 16)
	rand.Read(b)
	nonce := base64.StdEncoding.EncodeToString(b)
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-"+nonce+"'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("Content-Type", "text/html; charset=utf-8")
	return nonce
}

var callbackPage = template.Must(template.New("callback").Parse(`<!doctype html>
<html lang="{{.T.Locale}}" dir="{{.T.Dir}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>{{if .Error}}{{.T.T "social.failed"}}{{else}}{{.T.T "social.loggingIn"}}{{end}}</title>
<style>body{font-family:system-ui,sans-serif;margin:3rem auto;max-width:28rem;color:#111;text-align:center}</style></head>
<body>{{if .Error}}<h1>{{.T.T "social.failed"}}</h1><p id="latch-social-error">{{.Error}}</p><p>{{.T.T "social.close"}}</p>
{{else}}<p>{{.T.T "social.loggingIn"}}</p>
<script nonce="{{.Nonce}}">
(function () {
  var target = {{.ParentOrigin}};
  var resultUri = {{.ResultURI}};
  if (window.opener) {
    window.opener.postMessage({ resultUri: resultUri }, target);
    setTimeout(function () { window.close(); }, 50);
  } else {
    document.body.textContent = {{.T.T "social.openerGone"}};
  }
})();
</script>{{end}}
</body></html>
`))

// callbackView is what the callback page shows: an error, or the result it posts.
type callbackView struct {
	T                                     text
	Error, Nonce, ParentOrigin, ResultURI string
}

// text is i18n.Printer with a T that takes the key as templates write it.
type text struct{ i18n.Printer }

// T is key's string in the printer's locale.
func (t text) T(key string) string { return t.Printer.T(i18n.Key(key)) }

// pageText is a popup page's text in the request's locale: the locale
// parameter (the widget adds it to the popup's first URL), else the
// browser's languages (the provider's redirect to the callback carries none).
func pageText(r *http.Request) text {
	return text{i18n.For(i18n.FromRequest(r, ""))}
}

// Callback serves GET and POST (Apple's form_post) /auth/v1/social/callback
// on the frame origin: the provider's redirect. The result goes by
// postMessage to the page that started the login, and only to its origin.
func (h *Handler) Callback(w http.ResponseWriter, r *http.Request) {
	nonce := pageHeaders(w)
	t := pageText(r)
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := r.ParseForm(); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		callbackPage.Execute(w, callbackView{T: t, Error: t.T(string(i18n.SocialUnreadable))})
		return
	}
	res, err := h.svc.Callback(r.Context(), r.Form)
	if err != nil {
		msg := t.T(string(i18n.SocialError))
		if e := apperr.As(err); e != nil && e.Code != apperr.Internal {
			msg = e.Message
			w.WriteHeader(http.StatusBadRequest)
		} else {
			h.svc.cfg.Logger.ErrorContext(r.Context(), "social: callback", "err", err)
			w.WriteHeader(http.StatusInternalServerError)
		}
		callbackPage.Execute(w, callbackView{T: t, Error: msg})
		return
	}
	if res.RedirectURL != "" {
		// Redirect mode: back to the page, which reads result_uri.
		http.Redirect(w, r, res.RedirectURL, http.StatusSeeOther)
		return
	}
	callbackPage.Execute(w, callbackView{T: t, Nonce: nonce, ParentOrigin: res.ParentOrigin, ResultURI: res.ResultURI})
}

var loadingPage = template.Must(template.New("loading").Parse(`<!doctype html>
<html lang="{{.Locale}}" dir="{{.Dir}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>{{.T "social.loading"}}</title>
<style>body{font-family:system-ui,sans-serif;margin:3rem auto;max-width:28rem;color:#111;text-align:center}</style></head>
<body><p>{{.T "social.loading"}}</p></body></html>
`))

// Loading serves GET /auth/v1/social/loading on the frame origin: the
// popup's first page, opened at the click before the provider's URL is known.
func (h *Handler) Loading(w http.ResponseWriter, r *http.Request) {
	pageHeaders(w)
	loadingPage.Execute(w, pageText(r))
}
