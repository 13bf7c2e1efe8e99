package social

import (
	"net/http"
	"strings"

	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/project"
)

// FarcasterChannel serves POST /auth/v1/farcaster/channel (the frame).
func (h *Handler) FarcasterChannel(w http.ResponseWriter, r *http.Request) {
	var body struct {
		DeviceID      string `json:"deviceId"`
		CodeChallenge string `json:"codeChallenge"`
		ParentOrigin  string `json:"parentOrigin"`
	}
	if err := httpx.DecodeJSON(w, r, maxBody, &body); err != nil {
		writeError(w, r, err)
		return
	}
	ch, err := h.svc.CreateChannel(r.Context(), ChannelRequest{
		Project: project.FromContext(r.Context()), DeviceID: body.DeviceID, CodeChallenge: body.CodeChallenge,
		ParentOrigin: body.ParentOrigin, IP: h.clientIP(r),
	})
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, ch)
}

// FarcasterAuthenticate serves POST /auth/v1/farcaster/channel/authenticate:
// the Farcaster client posts the signed message, with the channel token as
// its bearer token (the token is this route's guard: no projectId, and no
// browser origin, as the client is an app).
func (h *Handler) FarcasterAuthenticate(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Message   string `json:"message"`
		Signature string `json:"signature"`
		FID       uint64 `json:"fid"`
		Username  string `json:"username"`
		// What Farcaster clients also send; not kept.
		DisplayName string `json:"displayName"`
		Bio         string `json:"bio"`
		PfpURL      string `json:"pfpUrl"`
	}
	if err := httpx.DecodeJSON(w, r, maxBody, &body); err != nil {
		writeError(w, r, err)
		return
	}
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if err := h.svc.Authenticate(r.Context(), FarcasterAuth{
		ChannelToken: strings.TrimSpace(token), Message: body.Message, Signature: body.Signature,
		FID: body.FID, Username: body.Username, IP: h.clientIP(r),
	}); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, map[string]string{"state": "completed"})
}

// FarcasterStatus serves POST /auth/v1/farcaster/channel/status (the frame's poll).
func (h *Handler) FarcasterStatus(w http.ResponseWriter, r *http.Request) {
	var body struct {
		ChannelToken string `json:"channelToken"`
		DeviceID     string `json:"deviceId"`
	}
	if err := httpx.DecodeJSON(w, r, maxBody, &body); err != nil {
		writeError(w, r, err)
		return
	}
	st, err := h.svc.ChannelStatus(r.Context(), project.FromContext(r.Context()), body.ChannelToken, body.DeviceID, h.clientIP(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, st)
}

// FarcasterConnect serves POST /auth/v1/farcaster/connect (the frame).
func (h *Handler) FarcasterConnect(w http.ResponseWriter, r *http.Request) {
	var body struct {
		ChannelToken string `json:"channelToken"`
		CodeVerifier string `json:"codeVerifier"`
		DeviceID     string `json:"deviceId"`
	}
	if err := httpx.DecodeJSON(w, r, maxBody, &body); err != nil {
		writeError(w, r, err)
		return
	}
	res, err := h.svc.ConnectFarcaster(r.Context(), FarcasterConnectRequest{
		Project: project.FromContext(r.Context()), ChannelToken: body.ChannelToken, CodeVerifier: body.CodeVerifier,
		DeviceID: body.DeviceID, IP: h.clientIP(r), UserAgent: r.UserAgent(),
	})
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, res)
}
