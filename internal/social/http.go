package social

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"html/template"
	"net/http"
	"net/url"
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

// Start serves POST /auth/v1/social/start. The frame-origin guard admits
// the frame's origin; a request with no Origin at all (not a browser's) is
// refused here: a login begun outside the frame is what finding 3 of
// issue 40 abused.
func (h *Handler) Start(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Origin") == "" {
		writeError(w, r, apperr.Fieldf(apperr.Forbidden, "Origin", MsgNoOrigin))
		return
	}
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
// only the page's own inline script (by nonce) and no form but the
// callback's own re-post (form-action 'self').
func pageHeaders(w http.ResponseWriter) string {
	b := make([]byte, 16)
	rand.Read(b)
	nonce := base64.StdEncoding.EncodeToString(b)
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-"+nonce+"'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
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
// on the frame origin: the provider's redirect. Only the browser holding the
// login's binding cookie gets a result; it goes by postMessage to the page
// that started the login, and only to its origin.
func (h *Handler) Callback(w http.ResponseWriter, r *http.Request) {
	nonce := pageHeaders(w)
	t := pageText(r)
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := r.ParseForm(); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		callbackPage.Execute(w, callbackView{T: t, Error: t.T(string(i18n.SocialUnreadable))})
		return
	}
	state := r.Form.Get("state")
	binding := ""
	if c, err := r.Cookie(BindingCookieName(state)); err == nil {
		binding = c.Value
	}
	if binding == "" && r.Method == http.MethodPost && r.PostForm.Get(repostField) == "" {
		// A provider's form post is a cross-site POST, which a browser
		// sends without a SameSite=Lax cookie: post the same fields again
		// from this origin, which it sends the cookie with.
		repostPage.Execute(w, repostView{T: t, Nonce: nonce, Action: CallbackPath, Fields: repostFields(r.PostForm)})
		return
	}
	res, err := h.svc.Callback(r.Context(), r.Form, binding)
	if err != nil {
		h.errorPage(w, r, t, "callback", err)
		return
	}
	h.clearBinding(w, state)
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

// Begin serves POST /auth/v1/social/begin?state=… on the frame origin: the
// page posts the popup (or itself, in redirect mode) here with a form, so
// the browser sends the page's Origin. latchd binds the login to this
// browser with an HttpOnly cookie and sends it on to the provider (303).
func (h *Handler) Begin(w http.ResponseWriter, r *http.Request) {
	pageHeaders(w)
	t := pageText(r)
	state := r.URL.Query().Get("state")
	res, err := h.svc.Begin(r.Context(), BeginRequest{State: state, Origin: r.Header.Get("Origin")})
	if err != nil {
		h.errorPage(w, r, t, "begin", err)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: BindingCookieName(state), Value: res.Binding, Path: CallbackPath, MaxAge: int(FlowTTL / time.Second),
		HttpOnly: true, Secure: h.svc.cfg.SecureCookies, SameSite: http.SameSiteLaxMode,
	})
	http.Redirect(w, r, res.AuthURL, http.StatusSeeOther)
}

// clearBinding removes the binding cookie of a login that came back.
func (h *Handler) clearBinding(w http.ResponseWriter, state string) {
	http.SetCookie(w, &http.Cookie{
		Name: BindingCookieName(state), Value: "", Path: CallbackPath, MaxAge: -1,
		HttpOnly: true, Secure: h.svc.cfg.SecureCookies, SameSite: http.SameSiteLaxMode,
	})
}

// errorPage answers a popup page's refusal: the service's message (403 for
// forbidden, else 400), or a generic one for an internal error, logged.
func (h *Handler) errorPage(w http.ResponseWriter, r *http.Request, t text, page string, err error) {
	msg := t.T(string(i18n.SocialError))
	switch e := apperr.As(err); {
	case e != nil && e.Code == apperr.Forbidden:
		msg = e.Message
		w.WriteHeader(http.StatusForbidden)
	case e != nil && e.Code != apperr.Internal:
		msg = e.Message
		w.WriteHeader(http.StatusBadRequest)
	default:
		h.svc.cfg.Logger.ErrorContext(r.Context(), "social: "+page, "err", err)
		w.WriteHeader(http.StatusInternalServerError)
	}
	callbackPage.Execute(w, callbackView{T: t, Error: msg})
}

// repostField marks the callback's own re-post of a provider's form post.
const repostField = "latch_repost"

// repostFields are the provider's fields the callback reads, posted again.
func repostFields(f url.Values) url.Values {
	out := url.Values{repostField: {"1"}}
	for _, k := range []string{"state", "code", "error", "error_description"} {
		if v := f.Get(k); v != "" {
			out.Set(k, truncateString(v, 1024))
		}
	}
	return out
}

var repostPage = template.Must(template.New("repost").Parse(`<!doctype html>
<html lang="{{.T.Locale}}" dir="{{.T.Dir}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>{{.T.T "social.loggingIn"}}</title>
<style>body{font-family:system-ui,sans-serif;margin:3rem auto;max-width:28rem;color:#111;text-align:center}</style></head>
<body><form method="post" action="{{.Action}}" id="f">{{range $k, $v := .Fields}}<input type="hidden" name="{{$k}}" value="{{index $v 0}}">{{end}}
<p>{{.T.T "social.loggingIn"}}</p><noscript><button type="submit">{{.T.T "devidp.continue"}}</button></noscript></form>
<script nonce="{{.Nonce}}">document.getElementById('f').submit()</script>
</body></html>
`))

// repostView is the re-post page: the provider's fields, posted again to Action.
type repostView struct {
	T             text
	Nonce, Action string
	Fields        url.Values
}
