package auth

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/project"
)

// The HTTP handlers of the second factor, passkeys, passkey recovery and
// the key-export gate (docs/auth.md). Every body names the frame's deviceId;
// the signed-in ones need a session bound to it.

type deviceBody struct {
	DeviceID string `json:"deviceId"`
}

type codeBody struct {
	DeviceID string `json:"deviceId"`
	Code     string `json:"code"`
}

type credentialBody struct {
	DeviceID    string          `json:"deviceId"`
	ChallengeID string          `json:"challengeId"`
	Name        string          `json:"name"`
	Credential  json.RawMessage `json:"credential"`
}

// decode reads a JSON body into v, answering the error itself.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := httpx.DecodeJSON(w, r, maxBody, v); err != nil {
		writeError(w, r, err)
		return false
	}
	return true
}

func answer(w http.ResponseWriter, r *http.Request, v any, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, v)
}

func freshUntil(t time.Time) map[string]time.Time {
	return map[string]time.Time{"factorFreshUntil": t.Add(FactorWindow).UTC()}
}

// Factors serves GET /auth/v1/mfa.
func (h *Handler) Factors(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		st, err := h.svc.Status(r.Context(), a)
		answer(w, r, st, err)
	})(w, r)
}

// TOTPEnroll serves POST /auth/v1/mfa/totp/enroll.
func (h *Handler) TOTPEnroll(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		var body deviceBody
		if decode(w, r, &body) {
			e, err := h.svc.EnrollTOTP(r.Context(), p, a, body.DeviceID)
			answer(w, r, e, err)
		}
	})(w, r)
}

// TOTPConfirm serves POST /auth/v1/mfa/totp/confirm.
func (h *Handler) TOTPConfirm(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		var body codeBody
		if decode(w, r, &body) {
			err := h.svc.ConfirmTOTP(r.Context(), a, body.DeviceID, body.Code, h.clientIP(r))
			answer(w, r, map[string]bool{"enrolled": true}, err)
		}
	})(w, r)
}

// TOTPVerify serves POST /auth/v1/mfa/totp/verify (a step-up).
func (h *Handler) TOTPVerify(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		var body codeBody
		if decode(w, r, &body) {
			at, err := h.svc.VerifyTOTP(r.Context(), a, body.DeviceID, body.Code, h.clientIP(r))
			answer(w, r, freshUntil(at), err)
		}
	})(w, r)
}

// TOTPDisable serves POST /auth/v1/mfa/totp/disable.
func (h *Handler) TOTPDisable(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		var body codeBody
		if decode(w, r, &body) {
			err := h.svc.DisableTOTP(r.Context(), a, body.DeviceID, body.Code, h.clientIP(r))
			answer(w, r, map[string]bool{"disabled": true}, err)
		}
	})(w, r)
}

// CompleteLogin serves POST /auth/v1/mfa/complete: a pending login's TOTP code.
func (h *Handler) CompleteLogin(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Ticket   string `json:"ticket"`
		DeviceID string `json:"deviceId"`
		Code     string `json:"code"`
	}
	if decode(w, r, &body) {
		sess, err := h.svc.CompleteLogin(r.Context(), CompleteRequest{Project: project.FromContext(r.Context()), Ticket: body.Ticket, DeviceID: body.DeviceID, Code: body.Code, IP: h.clientIP(r), UserAgent: r.UserAgent()})
		answer(w, r, sess, err)
	}
}

// PasskeyRegisterBegin serves POST /auth/v1/passkeys/register/begin.
func (h *Handler) PasskeyRegisterBegin(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		var body deviceBody
		if decode(w, r, &body) {
			c, err := h.svc.BeginPasskeyRegistration(r.Context(), p, a, body.DeviceID)
			answer(w, r, c, err)
		}
	})(w, r)
}

// PasskeyRegisterFinish serves POST /auth/v1/passkeys/register/finish.
func (h *Handler) PasskeyRegisterFinish(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		var body credentialBody
		if decode(w, r, &body) {
			pk, err := h.svc.FinishPasskeyRegistration(r.Context(), p, a, body.DeviceID, body.ChallengeID, body.Name, body.Credential)
			answer(w, r, map[string]any{"passkey": pk}, err)
		}
	})(w, r)
}

// Passkeys serves GET /auth/v1/passkeys.
func (h *Handler) Passkeys(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		list, err := h.svc.ListPasskeys(r.Context(), a)
		answer(w, r, map[string]any{"passkeys": list}, err)
	})(w, r)
}

// PasskeyRemove serves POST /auth/v1/passkeys/{id}/remove.
func (h *Handler) PasskeyRemove(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		var body deviceBody
		if decode(w, r, &body) {
			err := h.svc.RemovePasskey(r.Context(), a, body.DeviceID, r.PathValue("id"))
			answer(w, r, map[string]bool{"removed": true}, err)
		}
	})(w, r)
}

// PasskeyAssertBegin serves POST /auth/v1/passkeys/assert/begin (a step-up).
func (h *Handler) PasskeyAssertBegin(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		var body deviceBody
		if decode(w, r, &body) {
			c, err := h.svc.BeginPasskeyAssertion(r.Context(), p, a, body.DeviceID)
			answer(w, r, c, err)
		}
	})(w, r)
}

// PasskeyAssertFinish serves POST /auth/v1/passkeys/assert/finish.
func (h *Handler) PasskeyAssertFinish(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		var body credentialBody
		if decode(w, r, &body) {
			at, err := h.svc.FinishPasskeyAssertion(r.Context(), p, a, body.DeviceID, body.ChallengeID, h.clientIP(r), body.Credential)
			answer(w, r, freshUntil(at), err)
		}
	})(w, r)
}

// PasskeyLoginBegin serves POST /auth/v1/passkey/login/begin.
func (h *Handler) PasskeyLoginBegin(w http.ResponseWriter, r *http.Request) {
	var body deviceBody
	if decode(w, r, &body) {
		c, err := h.svc.BeginPasskeyLogin(r.Context(), project.FromContext(r.Context()), body.DeviceID, h.clientIP(r))
		answer(w, r, c, err)
	}
}

// PasskeyLoginFinish serves POST /auth/v1/passkey/login/finish.
func (h *Handler) PasskeyLoginFinish(w http.ResponseWriter, r *http.Request) {
	var body credentialBody
	if decode(w, r, &body) {
		sess, err := h.svc.FinishPasskeyLogin(r.Context(), PasskeyLoginRequest{Project: project.FromContext(r.Context()), DeviceID: body.DeviceID, ChallengeID: body.ChallengeID,
			Credential: body.Credential, IP: h.clientIP(r), UserAgent: r.UserAgent()})
		answer(w, r, sess, err)
	}
}

// PasskeyRecovery serves PUT /auth/v1/recovery/passkey.
func (h *Handler) PasskeyRecovery(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		var body PasskeyRecoveryRequest
		if decode(w, r, &body) {
			err := h.svc.SetPasskeyRecovery(r.Context(), a, body)
			answer(w, r, map[string]bool{"stored": true}, err)
		}
	})(w, r)
}

// Export serves POST /auth/v1/export: the key-export gate.
func (h *Handler) Export(w http.ResponseWriter, r *http.Request) {
	h.authed(func(w http.ResponseWriter, r *http.Request, p *project.Project, a *Auth) {
		var body deviceBody
		if decode(w, r, &body) {
			e, err := h.svc.AuthorizeExport(r.Context(), p, a, body.DeviceID)
			answer(w, r, e, err)
		}
	})(w, r)
}
