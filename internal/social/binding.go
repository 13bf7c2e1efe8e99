package social

import (
	"context"
	"crypto/subtle"
	"encoding/hex"
	"net/url"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
)

// The browser half of a login: Begin binds it to the browser the page
// posts from, Callback hands its result only to that browser. The binding
// is a cookie of the frame origin (HttpOnly, SameSite=Lax, Path
// CallbackPath): set on the top-level navigation of the popup (or of the
// page, in redirect mode) and sent back on the provider's top-level
// redirect to the callback, which are the requests a browser lets carry a
// SameSite cookie when the page is another site's. The frame's own fetches
// run in that other site's context and carry none.

// BeginRequest begins a started login in the browser that will finish it.
type BeginRequest struct {
	// State is the login's state (the begin URL's).
	State string
	// Origin is the request's Origin header: a browser sets it to the page
	// that posted the form, which must be the login's parent origin.
	Origin string
}

// BeginResult is where to send the browser, and the binding cookie's value
// to set before (BindingCookieName(state) on CallbackPath).
type BeginResult struct {
	AuthURL string
	Binding string
}

// Begin binds a started login to the browser the page posted from: the
// page's Origin must be the login's parent origin (a link sent to someone
// else, or a form posted from another site, begins nothing), and a login
// begins once. The binding's SHA-256 is kept with the login; the browser
// gets the binding as an HttpOnly cookie, which the callback requires.
// Errors: invalid (MsgInvalidState, MsgExpired, MsgBegun), forbidden
// (MsgBeginOrigin), unavailable (discovery).
func (s *Service) Begin(ctx context.Context, r BeginRequest) (BeginResult, error) {
	if r.State == "" || len(r.State) > 128 {
		return BeginResult{}, apperr.Fieldf(apperr.Invalid, "state", MsgInvalidState)
	}
	now := s.now()
	var projectID, provider, challenge, nonce, parent string
	var expires int64
	var began *int64
	err := s.db.QueryRow(ctx, `SELECT project_id, provider, code_challenge, nonce, parent_origin, expires_at, began_at FROM social_flows WHERE state_hash = ?`, hash(r.State)).
		Scan(&projectID, &provider, &challenge, &nonce, &parent, &expires, &began)
	switch {
	case store.IsNoRows(err):
		return BeginResult{}, apperr.Fieldf(apperr.Invalid, "state", MsgInvalidState)
	case err != nil:
		return BeginResult{}, err
	case expires <= ms(now):
		return BeginResult{}, apperr.Fieldf(apperr.Invalid, "state", MsgExpired)
	case began != nil:
		return BeginResult{}, apperr.Fieldf(apperr.Invalid, "state", MsgBegun)
	}
	if o, err := project.ParseOrigin(r.Origin); err != nil || o != parent {
		return BeginResult{}, apperr.Fieldf(apperr.Forbidden, "Origin", MsgBeginOrigin)
	}
	d, _ := Lookup(provider)
	creds, ok := s.cfg.Credentials(projectID, provider)
	if d == nil || !ok {
		return BeginResult{}, apperr.Fieldf(apperr.Forbidden, "provider", MsgProviderOff, provider)
	}
	rp := resolve(d, creds)
	ep, _, err := s.endpoints(ctx, rp)
	if err != nil {
		return BeginResult{}, err
	}
	binding := newToken()
	res, err := s.db.Exec(ctx, `UPDATE social_flows SET began_at = ?, binding_hash = ? WHERE state_hash = ? AND began_at IS NULL`, ms(now), hash(binding), hash(r.State))
	if err != nil {
		return BeginResult{}, err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return BeginResult{}, apperr.Fieldf(apperr.Invalid, "state", MsgBegun)
	}
	opts := []oauth2.AuthCodeOption{
		oauth2.SetAuthURLParam("code_challenge", challenge),
		oauth2.SetAuthURLParam("code_challenge_method", "S256"),
	}
	if rp.def.OIDC() {
		opts = append(opts, oidc.Nonce(nonce))
	}
	for k, v := range rp.def.AuthParams {
		opts = append(opts, oauth2.SetAuthURLParam(k, v))
	}
	return BeginResult{AuthURL: s.oauthConfig(rp, ep).AuthCodeURL(r.State, opts...), Binding: binding}, nil
}

// BindingCookieName is the name of the binding cookie of the login of
// state: one per login, so two logins under way in one browser (two tabs)
// do not undo each other's.
func BindingCookieName(state string) string {
	return BindingCookiePrefix + hex.EncodeToString(hash(state)[:8])
}

// CallbackResult is what the callback page hands the page that opened the
// popup: the result URI for CONNECT_SOCIAL, posted only to ParentOrigin.
type CallbackResult struct {
	ResultURI    string
	ParentOrigin string
	Provider     string
	// RedirectURL, in redirect mode: the page to send the visitor back to,
	// the result URI in its result_uri parameter.
	RedirectURL string
}

// Callback takes the provider's redirect (state, and code or error) with
// the browser's binding cookie for that state ("" when it sent none) and
// returns the result to hand the page. A flow comes back once, and only to
// the browser that began it: an unknown, never begun, expired or already
// returned state is refused (invalid; MsgInvalidState, MsgExpired,
// MsgUsed), and a browser without the login's cookie is refused (forbidden,
// MsgOtherBrowser) and ends the login, so the code it carried can be used
// by no one. Nothing is handed on after a refusal.
func (s *Service) Callback(ctx context.Context, q url.Values, binding string) (CallbackResult, error) {
	state := q.Get("state")
	if state == "" || len(state) > 128 {
		return CallbackResult{}, apperr.Fieldf(apperr.Invalid, "state", MsgInvalidState)
	}
	now := s.now()
	var res CallbackResult
	var expires int64
	var returned, consumed *int64
	var bound []byte
	var returnURL string
	err := s.db.QueryRow(ctx, `SELECT provider, parent_origin, return_url, expires_at, returned_at, consumed_at, binding_hash FROM social_flows WHERE state_hash = ?`, hash(state)).
		Scan(&res.Provider, &res.ParentOrigin, &returnURL, &expires, &returned, &consumed, &bound)
	switch {
	case store.IsNoRows(err) || (err == nil && bound == nil):
		return CallbackResult{}, apperr.Fieldf(apperr.Invalid, "state", MsgInvalidState)
	case err != nil:
		return CallbackResult{}, err
	case expires <= ms(now):
		return CallbackResult{}, apperr.Fieldf(apperr.Invalid, "state", MsgExpired)
	case returned != nil || consumed != nil:
		return CallbackResult{}, apperr.Fieldf(apperr.Invalid, "state", MsgUsed)
	case subtle.ConstantTimeCompare(hash(binding), bound) != 1:
		if _, err := s.db.Exec(ctx, `UPDATE social_flows SET consumed_at = ? WHERE state_hash = ? AND consumed_at IS NULL`, ms(now), hash(state)); err != nil {
			return CallbackResult{}, err
		}
		return CallbackResult{}, apperr.Fieldf(apperr.Forbidden, "state", MsgOtherBrowser)
	}
	r, err := s.db.Exec(ctx, `UPDATE social_flows SET returned_at = ? WHERE state_hash = ? AND returned_at IS NULL AND consumed_at IS NULL`, ms(now), hash(state))
	if err != nil {
		return CallbackResult{}, err
	}
	if n, _ := r.RowsAffected(); n != 1 {
		return CallbackResult{}, apperr.Fieldf(apperr.Invalid, "state", MsgUsed)
	}
	out := url.Values{"state": {state}}
	for _, k := range []string{"code", "error", "error_description"} {
		if v := q.Get(k); v != "" {
			out.Set(k, truncateString(v, 1024))
		}
	}
	res.ResultURI = s.frameURL(ResultPath) + "?" + out.Encode()
	if returnURL != "" {
		u, _ := url.Parse(returnURL)
		q := u.Query()
		q.Set("result_uri", res.ResultURI)
		u.RawQuery = q.Encode()
		res.RedirectURL = u.String()
	}
	return res, nil
}
