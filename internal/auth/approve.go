package auth

import (
	"html/template"
	"net/http"
	"net/url"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/i18n"
)

// approvePage is the device approval page on the frame origin. A GET only
// shows the button: mail scanners and link previews open links, and must
// not approve a device by doing so. The form posts the token back.
var approvePage = template.Must(template.New("approve").Parse(`<!doctype html>
<html lang="{{.Locale}}" dir="{{.Dir}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{.Title}}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#111}button{font-size:1rem;padding:.6rem 1.2rem;border-radius:.4rem;border:0;background:#111;color:#fff;cursor:pointer}</style>
</head><body>
<h1>{{.Title}}</h1>
<p data-testid="latch-approve-message">{{.Message}}</p>
{{if .Token}}<form method="post" action="{{.Action}}"><input type="hidden" name="token" value="{{.Token}}"><button type="submit" data-testid="latch-approve-button">{{.Button}}</button></form>{{end}}
</body></html>
`))

type approveView struct {
	Title, Message, Token, Action string
	Locale, Dir, Button           string
}

// pageText is the approval page's text in the request's locale: the
// link's locale parameter (the mail's), else the browser's languages.
func pageText(r *http.Request) i18n.Printer {
	return i18n.For(i18n.FromRequest(r, ""))
}

// approveMessage is a view with a title and message of p and nothing to approve.
func approveMessage(p i18n.Printer, title, message i18n.Key, params ...string) approveView {
	return approveView{Title: p.T(title), Message: p.T(message, params...)}
}

func writeApprovePage(w http.ResponseWriter, p i18n.Printer, status int, v approveView) {
	v.Locale, v.Dir, v.Button = p.Locale(), p.Dir(), p.T(i18n.ApproveButton)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	// The page has no script; it may post only to itself and never be framed.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	w.WriteHeader(status)
	approvePage.Execute(w, v)
}

const maxTokenLen = 64

// approveAction is the form's target: the approval path, keeping the page's
// locale for the answer page.
func approveAction(p i18n.Printer) string {
	return ApprovePath + "?locale=" + url.QueryEscape(p.Locale())
}

// ApprovePage serves GET /auth/v1/device/approve?token=…: the page behind
// the link in the mail.
func (h *Handler) ApprovePage(w http.ResponseWriter, r *http.Request) {
	p := pageText(r)
	token := r.URL.Query().Get("token")
	if token == "" || len(token) > maxTokenLen {
		writeApprovePage(w, p, http.StatusBadRequest, approveMessage(p, i18n.ApproveInvalidTitle, i18n.ApproveInvalidMessage))
		return
	}
	name, state, err := h.svc.LinkState(r.Context(), token)
	if err != nil {
		h.svc.cfg.Logger.ErrorContext(r.Context(), "auth: approval page", "err", err)
		writeApprovePage(w, p, http.StatusInternalServerError, approveMessage(p, i18n.ErrorTitle, i18n.ApproveRetry))
		return
	}
	if state != DevicePending {
		writeApprovePage(w, p, http.StatusGone, approveMessage(p, i18n.ApproveExpiredTitle, i18n.ApproveExpiredMessage))
		return
	}
	if name == "" {
		name = p.T(i18n.TheApp)
	}
	writeApprovePage(w, p, http.StatusOK, approveView{Title: p.T(i18n.ApproveButton), Message: p.T(i18n.ApproveMessage, "project", name), Token: token, Action: approveAction(p)})
}

// Approve serves POST /auth/v1/device/approve (form field token).
func (h *Handler) Approve(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	token := r.PostFormValue("token")
	p := pageText(r)
	if token == "" || len(token) > maxTokenLen {
		writeApprovePage(w, p, http.StatusBadRequest, approveMessage(p, i18n.ApproveInvalidTitle, i18n.ApproveInvalidMessage))
		return
	}
	name, err := h.svc.Approve(r.Context(), token)
	if err != nil {
		if apperr.Code(err) == apperr.Invalid {
			writeApprovePage(w, p, http.StatusGone, approveMessage(p, i18n.ApproveExpiredTitle, i18n.ApproveExpiredMessage))
			return
		}
		h.svc.cfg.Logger.ErrorContext(r.Context(), "auth: approve device", "err", err)
		writeApprovePage(w, p, http.StatusInternalServerError, approveMessage(p, i18n.ErrorTitle, i18n.ApproveRetry))
		return
	}
	if name == "" {
		name = p.T(i18n.TheApp)
	}
	writeApprovePage(w, p, http.StatusOK, approveMessage(p, i18n.ApproveDoneTitle, i18n.ApproveDoneMessage, "project", name))
}
