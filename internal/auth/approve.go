package auth

import (
	"html/template"
	"net/http"

	"github.com/latchkit/latch/internal/apperr"
)

// approvePage is the device approval page on the frame origin. A GET only
// shows the button: mail scanners and link previews open links, and must
// not approve a device by doing so. The form posts the token back.
var approvePage = template.Must(template.New("approve").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{.Title}}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#111}button{font-size:1rem;padding:.6rem 1.2rem;border-radius:.4rem;border:0;background:#111;color:#fff;cursor:pointer}</style>
</head><body>
<h1>{{.Title}}</h1>
<p data-testid="latch-approve-message">{{.Message}}</p>
{{if .Token}}<form method="post" action="{{.Action}}"><input type="hidden" name="token" value="{{.Token}}"><button type="submit" data-testid="latch-approve-button">Approve this device</button></form>{{end}}
</body></html>
`))

type approveView struct {
	Title, Message, Token, Action string
}

func writeApprovePage(w http.ResponseWriter, status int, v approveView) {
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

// ApprovePage serves GET /auth/v1/device/approve?token=…: the page behind
// the link in the mail.
func (h *Handler) ApprovePage(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	if token == "" || len(token) > maxTokenLen {
		writeApprovePage(w, http.StatusBadRequest, approveView{Title: "Link not valid", Message: "This approval link is incomplete. Open the link from the e-mail again."})
		return
	}
	name, state, err := h.svc.LinkState(r.Context(), token)
	if err != nil {
		h.svc.cfg.Logger.ErrorContext(r.Context(), "auth: approval page", "err", err)
		writeApprovePage(w, http.StatusInternalServerError, approveView{Title: "Something went wrong", Message: "Try the link again in a moment."})
		return
	}
	if state != DevicePending {
		writeApprovePage(w, http.StatusGone, approveView{Title: "Link expired", Message: "This link has expired or was already used. Start the login again to get a new one."})
		return
	}
	if name == "" {
		name = "the app"
	}
	writeApprovePage(w, http.StatusOK, approveView{Title: "Approve this device", Message: "A device asked to log in to " + name + " with your e-mail address. Approve it only if it is you, on the device you are using now.", Token: token, Action: ApprovePath})
}

// Approve serves POST /auth/v1/device/approve (form field token).
func (h *Handler) Approve(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	token := r.PostFormValue("token")
	if token == "" || len(token) > maxTokenLen {
		writeApprovePage(w, http.StatusBadRequest, approveView{Title: "Link not valid", Message: "This approval link is incomplete. Open the link from the e-mail again."})
		return
	}
	name, err := h.svc.Approve(r.Context(), token)
	if err != nil {
		if apperr.Code(err) == apperr.Invalid {
			writeApprovePage(w, http.StatusGone, approveView{Title: "Link expired", Message: "This link has expired or was already used. Start the login again to get a new one."})
			return
		}
		h.svc.cfg.Logger.ErrorContext(r.Context(), "auth: approve device", "err", err)
		writeApprovePage(w, http.StatusInternalServerError, approveView{Title: "Something went wrong", Message: "Try the link again in a moment."})
		return
	}
	if name == "" {
		name = "the app"
	}
	writeApprovePage(w, http.StatusOK, approveView{Title: "Device approved", Message: "Device approved. You can go back to " + name + "."})
}
