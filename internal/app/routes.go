package app

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"text/tabwriter"

	"github.com/latchkit/latch/api"
	"github.com/latchkit/latch/internal/account"
	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/explorer"
	"github.com/latchkit/latch/internal/frameapp"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/metrics"
	"github.com/latchkit/latch/internal/names"
	"github.com/latchkit/latch/internal/onramp"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/ratelimit"
	"github.com/latchkit/latch/internal/siwx"
	"github.com/latchkit/latch/internal/social"
	"github.com/latchkit/latch/internal/swap"
	"github.com/latchkit/latch/internal/telemetry"
)

// Guard is the class of check a route passes before its handler runs. The
// zero value is no class: mounting a route without one panics, and the
// route table's test fails first.
type Guard uint8

// The guard classes.
const (
	// GuardOpen: no check. Health, the admin listener's metrics (the
	// listener's address is their guard), the relay's websocket upgrade
	// (the relay authorizes its projectId and Origin itself), CORS
	// preflight and the unknown-route answer.
	GuardOpen Guard = iota + 1
	// GuardProject: a known projectId and, from a browser, an Origin the
	// project allows (project.Guard.Require). A route marked alsoFrame
	// also admits the embedded-wallet frame's own origin (admitFrame in
	// frame.go).
	GuardProject
	// GuardAdmin: the project guard, then the operator's bearer token
	// (project.Guard.RequireAdmin).
	GuardAdmin
	// GuardDev: latchd dev only (not mounted by latchd serve), from local
	// origins only (project.Guard.LocalOnly) and under a local Host
	// (localHostOnly).
	GuardDev
	// GuardFrameOrigin: a known projectId and, from a browser, the
	// embedded-wallet frame's own origin, not the project's (only the frame
	// calls /auth/v1; requireFrameOrigin in auth.go).
	GuardFrameOrigin
	// GuardLink: the device approval page opened from a mail: no projectId,
	// no session, often no Origin; the one-use token it carries is its
	// guard (linkGuard in auth.go).
	GuardLink
)

var guardNames = [...]string{GuardOpen: "open", GuardProject: "project", GuardAdmin: "admin", GuardDev: "dev", GuardFrameOrigin: "frame-origin", GuardLink: "link"}

// String is the class's name in `latchd routes`; "" for no class.
func (g Guard) String() string {
	if int(g) < len(guardNames) {
		return guardNames[g]
	}
	return ""
}

// Listeners of the routes.
const (
	listenerAPI   = "api"
	listenerFrame = "frame"
	// listenerAdmin is the operator's listener (--admin-addr, loopback by
	// default): what must not be public, such as metrics naming upstream hosts.
	listenerAdmin = "admin"
)

// route is one route: its mux pattern, guard class and handler.
type route struct {
	listener string
	pattern  string // "[METHOD ]/path", as http.ServeMux reads it
	guard    Guard
	// handler is the route's handler on a running Main.
	handler func(m *Main) http.Handler
	// beforeGuard, when set, wraps the guarded handler: it puts where the
	// guard looks what the client sends elsewhere (the price route's
	// projectId comes in its JSON body).
	beforeGuard func(http.Handler) http.Handler
	// around, instead of handler, serves the route ahead of the mux, for
	// every path, by wrapping the mux (CORS preflight: the mux would answer
	// OPTIONS with 405); pattern is then for display.
	around func(m *Main, mux http.Handler) http.Handler
	// jsonRPC marks a JSON-RPC endpoint: refusals made before its handler
	// runs (the IP rate limit) answer with JSON-RPC error bodies.
	jsonRPC bool
	// alsoFrame marks a project route the embedded-wallet frame calls too:
	// besides the project's origins it admits the frame's own origin,
	// preflight included (the frame's RPC reads go through the RPC proxy).
	alsoFrame bool
}

// routes is every route latchd serves, on the API, admin and frame listeners. The
// demo listener (latchd dev --demo-dir) serves files, not routes.
var routes = []route{
	{listener: listenerAPI, pattern: "GET /healthz", guard: GuardOpen, handler: func(m *Main) http.Handler { return http.HandlerFunc(handleHealth) }},
	{listener: listenerAPI, pattern: "GET /readyz", guard: GuardOpen, handler: func(m *Main) http.Handler { return http.HandlerFunc(m.handleReady) }},
	{listener: listenerAPI, pattern: "OPTIONS /{path...}", guard: GuardOpen, around: func(m *Main, mux http.Handler) http.Handler { return m.framePreflight(m.http.guard.Preflight(mux)) }},
	// The API's contract (api/openapi.yaml), checked against this table and the handlers by openapi_test.go.
	{listener: listenerAPI, pattern: "GET /openapi.yaml", guard: GuardOpen, handler: func(m *Main) http.Handler { return api.Handler() }},

	// Project configuration (api-shapes §1.3–1.6).
	// The project's features; its socials only those with credentials (social.go).
	{listener: listenerAPI, pattern: "GET /appkit/v1/config", guard: GuardProject, handler: func(m *Main) http.Handler { return http.HandlerFunc(m.handleConfig) }},
	{listener: listenerAPI, pattern: "GET /appkit/v1/project-limits", guard: GuardProject, handler: handlerFunc(project.HandleLimits)},
	{listener: listenerAPI, pattern: "GET /projects/v1/origins", guard: GuardProject, handler: handlerFunc(project.HandleOrigins)},
	{listener: listenerAPI, pattern: "GET /getAnalyticsConfig", guard: GuardProject, handler: handlerFunc(project.HandleAnalyticsConfig)},

	// Wallet explorer.
	{listener: listenerAPI, pattern: "GET /getWallets", guard: GuardProject, handler: func(m *Main) http.Handler { return http.HandlerFunc(m.http.explorer.Wallets) }},
	{listener: listenerAPI, pattern: "GET /getWalletImage/{id}", guard: GuardProject, handler: explorerImage(explorer.KindWallet)},
	{listener: listenerAPI, pattern: "GET /public/getAssetImage/{id}", guard: GuardProject, handler: explorerImage(explorer.KindAsset)},
	{listener: listenerAPI, pattern: "GET /public/getCurrencyImage/{id}", guard: GuardProject, handler: explorerImage(explorer.KindCurrency)},
	{listener: listenerAPI, pattern: "GET /public/getTokenImage/{id}", guard: GuardProject, handler: explorerImage(explorer.KindToken)},

	// Telemetry.
	{listener: listenerAPI, pattern: "POST /e", guard: GuardProject, handler: func(m *Main) http.Handler { return http.HandlerFunc(m.http.telemetry.HandleEvent) }},
	{listener: listenerAPI, pattern: "POST /batch", guard: GuardProject, handler: func(m *Main) http.Handler { return http.HandlerFunc(m.http.telemetry.HandleBatch) }},
	{listener: listenerAPI, pattern: "GET /v1/analytics/summary", guard: GuardAdmin, handler: func(m *Main) http.Handler { return http.HandlerFunc(m.http.telemetry.HandleSummary) }},

	// Networks and the RPC proxy (AppKit posts to "/v1/?chainId=…", api-shapes §3.8).
	{listener: listenerAPI, pattern: "GET /v1/supported-chains", guard: GuardProject, handler: func(m *Main) http.Handler { return http.HandlerFunc(m.Networks.HandleSupportedChains) }},
	{listener: listenerAPI, pattern: "GET /v1/networks", guard: GuardProject, handler: func(m *Main) http.Handler { return http.HandlerFunc(m.Networks.HandleNetworks) }},
	{listener: listenerAPI, pattern: "POST /v1", guard: GuardProject, handler: func(m *Main) http.Handler { return m.rpc }, jsonRPC: true, alsoFrame: true},
	{listener: listenerAPI, pattern: "POST /v1/{$}", guard: GuardProject, handler: func(m *Main) http.Handler { return m.rpc }, jsonRPC: true, alsoFrame: true},
	// Its subscriptions: GET /v1 (and /ws) upgraded to a WebSocket (rpcproxy/ws.go).
	{listener: listenerAPI, pattern: "GET /v1", guard: GuardProject, handler: func(m *Main) http.Handler { return http.HandlerFunc(m.rpc.ServeWS) }, jsonRPC: true},
	{listener: listenerAPI, pattern: "GET /v1/{$}", guard: GuardProject, handler: func(m *Main) http.Handler { return http.HandlerFunc(m.rpc.ServeWS) }, jsonRPC: true},
	{listener: listenerAPI, pattern: "GET /ws", guard: GuardProject, handler: func(m *Main) http.Handler { return http.HandlerFunc(m.rpc.ServeWS) }, jsonRPC: true},

	// Account data.
	{listener: listenerAPI, pattern: "GET /v1/account/{address}/history", guard: GuardProject, handler: accountRoute((*account.Handler).History)},
	// /v1/account//history (no address) is cleaned to this path by the mux.
	{listener: listenerAPI, pattern: "GET /v1/account/history", guard: GuardProject, handler: accountRoute((*account.Handler).History)},
	{listener: listenerAPI, pattern: "GET /v1/account/{address}/balance", guard: GuardProject, handler: accountRoute((*account.Handler).Balance)},
	{listener: listenerAPI, pattern: "GET /v1/account/{address}/identity", guard: GuardProject, handler: accountRoute((*account.Handler).Identity)},
	{listener: listenerAPI, pattern: "GET /v1/identity/{address}", guard: GuardProject, handler: accountRoute((*account.Handler).Identity)},
	// Avatars and other remote images, fetched by latchd so the page contacts no other host.
	{listener: listenerAPI, pattern: "GET " + account.ImageProxyPath, guard: GuardProject, handler: func(m *Main) http.Handler { return m.account.images }},
	{listener: listenerAPI, pattern: "POST /v1/fungible/price", guard: GuardProject, handler: accountRoute((*account.Handler).Price), beforeGuard: account.ProjectFromBody},

	// Swaps (api-shapes §3.4, docs/swap.md): quoted and built from on-chain router state.
	{listener: listenerAPI, pattern: "GET /v1/convert/tokens", guard: GuardProject, handler: swapRoute((*swap.Handler).Tokens)},
	{listener: listenerAPI, pattern: "GET /v1/convert/quotes", guard: GuardProject, handler: swapRoute((*swap.Handler).Quotes)},
	{listener: listenerAPI, pattern: "GET /v1/convert/allowance", guard: GuardProject, handler: swapRoute((*swap.Handler).Allowance)},
	{listener: listenerAPI, pattern: "GET /v1/convert/gas-price", guard: GuardProject, handler: swapRoute((*swap.Handler).GasPrice)},
	{listener: listenerAPI, pattern: "GET /v1/convert/build-approve", guard: GuardProject, handler: swapRoute((*swap.Handler).BuildApprove)},
	{listener: listenerAPI, pattern: "POST /v1/convert/build-transaction", guard: GuardProject, handler: swapRoute((*swap.Handler).BuildTransaction), beforeGuard: account.ProjectFromBody},

	// Account names of this latchd's zone (api-shapes §3.6), and the ENS
	// offchain resolver gateway ENS clients anywhere call (no projectId).
	// Registration needs the embedded wallet's session (spec §5), which only its frame holds: the frame posts it.
	{listener: listenerAPI, pattern: "POST /v1/profile/account", guard: GuardProject, handler: namesRoute((*names.Handler).Register), alsoFrame: true},
	{listener: listenerAPI, pattern: "GET /v1/profile/account/{name}", guard: GuardProject, handler: namesRoute((*names.Handler).Lookup)},
	{listener: listenerAPI, pattern: "GET /v1/profile/reverse/{address}", guard: GuardProject, handler: namesRoute((*names.Handler).Reverse)},
	{listener: listenerAPI, pattern: "GET /v1/profile/suggestions/{name}", guard: GuardProject, handler: namesRoute((*names.Handler).Suggestions)},
	{listener: listenerAPI, pattern: "GET " + names.GatewayPath, guard: GuardOpen, handler: namesGatewayRoute},

	// On-ramp (docs/onramp.md, api-shapes §3.7): options, quotes, the
	// checkout URL generator, an order's status and the operator's listing.
	{listener: listenerAPI, pattern: "GET /v1/onramp/options", guard: GuardProject, handler: onrampRoute((*onramp.Handler).Options)},
	{listener: listenerAPI, pattern: "POST /v1/onramp/quote", guard: GuardProject, handler: onrampRoute((*onramp.Handler).Quote)},
	{listener: listenerAPI, pattern: "POST /v1/generators/onrampurl", guard: GuardProject, handler: onrampRoute((*onramp.Handler).GenerateURL)},
	{listener: listenerAPI, pattern: "GET /v1/onramp/orders/{id}", guard: GuardProject, handler: onrampRoute((*onramp.Handler).Order)},
	{listener: listenerAPI, pattern: "GET /v1/onramp/orders", guard: GuardAdmin, handler: onrampRoute((*onramp.Handler).Orders)},

	// E-mail login for the embedded wallet (docs/auth-api.md); only the frame calls it.
	{listener: listenerAPI, pattern: "OPTIONS /auth/v1/{path...}", guard: GuardOpen, around: func(m *Main, mux http.Handler) http.Handler { return m.authPreflight(mux) }},
	{listener: listenerAPI, pattern: "POST /auth/v1/email/start", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).Start)},
	{listener: listenerAPI, pattern: "POST /auth/v1/device/status", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).DeviceStatus)},
	{listener: listenerAPI, pattern: "POST /auth/v1/email/verify", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).Verify)},
	{listener: listenerAPI, pattern: "POST /auth/v1/session/refresh", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).Refresh)},
	// The e-mail session's account; GET /auth/v1/me is Sign-in with X's (AppKit's contract).
	{listener: listenerAPI, pattern: "GET /auth/v1/email/me", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).Me)},
	{listener: listenerAPI, pattern: "GET /auth/v1/sessions", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).Sessions)},
	{listener: listenerAPI, pattern: "POST /auth/v1/sessions/{id}/revoke", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).Revoke)},
	{listener: listenerAPI, pattern: "PUT /auth/v1/shares", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).PutShares)},
	{listener: listenerAPI, pattern: "POST /auth/v1/shares/fetch", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).FetchShares)},
	{listener: listenerAPI, pattern: "POST /auth/v1/email/change", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).ChangeEmail)},
	{listener: listenerAPI, pattern: "POST /auth/v1/email/change/primary", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).ChangeEmailPrimary)},
	{listener: listenerAPI, pattern: "POST /auth/v1/email/change/secondary", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).ChangeEmailSecondary)},
	{listener: listenerAPI, pattern: "GET /auth/v1/origins", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).Origins)},
	// Second factor, passkeys, passkey recovery and the key-export gate (docs/auth.md, issue 40).
	{listener: listenerAPI, pattern: "GET /auth/v1/mfa", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).Factors)},
	{listener: listenerAPI, pattern: "POST /auth/v1/mfa/totp/enroll", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).TOTPEnroll)},
	{listener: listenerAPI, pattern: "POST /auth/v1/mfa/totp/confirm", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).TOTPConfirm)},
	{listener: listenerAPI, pattern: "POST /auth/v1/mfa/totp/verify", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).TOTPVerify)},
	{listener: listenerAPI, pattern: "POST /auth/v1/mfa/totp/disable", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).TOTPDisable)},
	{listener: listenerAPI, pattern: "POST /auth/v1/mfa/complete", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).CompleteLogin)},
	{listener: listenerAPI, pattern: "GET /auth/v1/passkeys", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).Passkeys)},
	{listener: listenerAPI, pattern: "POST /auth/v1/passkeys/register/begin", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).PasskeyRegisterBegin)},
	{listener: listenerAPI, pattern: "POST /auth/v1/passkeys/register/finish", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).PasskeyRegisterFinish)},
	{listener: listenerAPI, pattern: "POST /auth/v1/passkeys/assert/begin", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).PasskeyAssertBegin)},
	{listener: listenerAPI, pattern: "POST /auth/v1/passkeys/assert/finish", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).PasskeyAssertFinish)},
	{listener: listenerAPI, pattern: "POST /auth/v1/passkeys/{id}/remove", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).PasskeyRemove)},
	{listener: listenerAPI, pattern: "POST /auth/v1/passkey/login/begin", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).PasskeyLoginBegin)},
	{listener: listenerAPI, pattern: "POST /auth/v1/passkey/login/finish", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).PasskeyLoginFinish)},
	{listener: listenerAPI, pattern: "PUT /auth/v1/recovery/passkey", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).PasskeyRecovery)},
	{listener: listenerAPI, pattern: "POST /auth/v1/export", guard: GuardFrameOrigin, handler: authRoute((*auth.Handler).Export)},
	// Social login (docs/social.md): the frame starts and connects; the popup's pages are on the frame origin.
	{listener: listenerAPI, pattern: "POST /auth/v1/social/start", guard: GuardFrameOrigin, handler: socialRoute((*social.Handler).Start)},
	{listener: listenerAPI, pattern: "POST /auth/v1/social/connect", guard: GuardFrameOrigin, handler: socialRoute((*social.Handler).Connect)},
	{listener: listenerAPI, pattern: "GET /auth/v1/social/providers", guard: GuardFrameOrigin, handler: socialRoute((*social.Handler).Providers)},
	// Sign In With Farcaster (docs/social.md): the frame opens a channel, polls it and connects; the Farcaster
	// client posts the signed message to the channel with its token as bearer (the token is its guard, as an
	// app it sends no Origin and no projectId).
	{listener: listenerAPI, pattern: "POST " + social.FarcasterChannelPath, guard: GuardFrameOrigin, handler: socialRoute((*social.Handler).FarcasterChannel)},
	{listener: listenerAPI, pattern: "POST " + social.FarcasterStatusPath, guard: GuardFrameOrigin, handler: socialRoute((*social.Handler).FarcasterStatus)},
	{listener: listenerAPI, pattern: "POST " + social.FarcasterConnectPath, guard: GuardFrameOrigin, handler: socialRoute((*social.Handler).FarcasterConnect)},
	{listener: listenerAPI, pattern: "POST " + social.FarcasterRelayPath, guard: GuardOpen, handler: socialRoute((*social.Handler).FarcasterAuthenticate)},

	// Sign-in with X (docs/siwx.md): AppKit's sign-in calls, called by the
	// dapp's page, then our own session and verify routes.
	{listener: listenerAPI, pattern: "GET /auth/v1/nonce", guard: GuardProject, handler: siwxRoute((*siwx.Handler).Nonce)},
	{listener: listenerAPI, pattern: "POST /auth/v1/authenticate", guard: GuardProject, handler: siwxRoute((*siwx.Handler).Authenticate)},
	{listener: listenerAPI, pattern: "GET /auth/v1/me", guard: GuardProject, handler: siwxRoute((*siwx.Handler).Me)},
	{listener: listenerAPI, pattern: "POST /auth/v1/sign-out", guard: GuardProject, handler: siwxRoute((*siwx.Handler).SignOut)},
	{listener: listenerAPI, pattern: "GET /auth/v1/siwx/sessions", guard: GuardProject, handler: siwxRoute((*siwx.Handler).Sessions)},
	{listener: listenerAPI, pattern: "GET /auth/v1/siwx/sessions/{id}", guard: GuardProject, handler: siwxRoute((*siwx.Handler).Get)},
	{listener: listenerAPI, pattern: "POST /auth/v1/siwx/sessions/{id}/revoke", guard: GuardProject, handler: siwxRoute((*siwx.Handler).Revoke)},
	{listener: listenerAPI, pattern: "POST /auth/v1/siwx/verify", guard: GuardProject, handler: siwxRoute((*siwx.Handler).Verify)},

	// WalletConnect relay: /relay, and a websocket upgrade at any other path
	// ("/" is what WalletConnect clients open); other unknown paths get a 404.
	{listener: listenerAPI, pattern: "GET /relay", guard: GuardOpen, handler: func(m *Main) http.Handler { return m.relay.server }},
	{listener: listenerAPI, pattern: "/", guard: GuardOpen, handler: func(m *Main) http.Handler { return http.HandlerFunc(m.handleFallback) }},

	// latchd dev.
	{listener: listenerAPI, pattern: "GET /dev/info", guard: GuardDev, handler: func(m *Main) http.Handler { return http.HandlerFunc(m.handleDevInfo) }},
	{listener: listenerAPI, pattern: "POST /dev/faucet", guard: GuardDev, handler: func(m *Main) http.Handler { return http.HandlerFunc(m.handleFaucet) }},
	{listener: listenerAPI, pattern: "GET /dev/outbox", guard: GuardDev, handler: func(m *Main) http.Handler { return http.HandlerFunc(m.handleDevOutbox) }},
	{listener: listenerAPI, pattern: "POST /dev/price", guard: GuardDev, handler: func(m *Main) http.Handler { return m.Devnet.HandlePrice(m.devPriceChanged) }},
	// latchd dev's identity provider, standing in for each social provider without credentials (internal/devidp).
	{listener: listenerAPI, pattern: "GET /dev/idp/{path...}", guard: GuardDev, handler: devIDPRoute},
	{listener: listenerAPI, pattern: "POST /dev/idp/{path...}", guard: GuardDev, handler: devIDPRoute},
	// The dev on-ramp's checkout page (a test card pays; the faucet credits).
	{listener: listenerAPI, pattern: "GET " + onramp.DevCheckoutPath, guard: GuardDev, handler: devCheckoutRoute((*onramp.Dev).ServeCheckout)},
	{listener: listenerAPI, pattern: "POST " + onramp.DevCheckoutPath, guard: GuardDev, handler: devCheckoutRoute((*onramp.Dev).Pay)},

	// The operator's listener: reachable only where --admin-addr binds
	// (loopback by default), which is its guard.
	{listener: listenerAdmin, pattern: "GET /metrics", guard: GuardOpen, handler: func(m *Main) http.Handler { return m.Metrics }},
	{listener: listenerAdmin, pattern: "GET /healthz", guard: GuardOpen, handler: func(m *Main) http.Handler { return http.HandlerFunc(handleHealth) }},

	// The embedded-wallet frame's origin.
	{listener: listenerFrame, pattern: "GET /healthz", guard: GuardOpen, handler: func(m *Main) http.Handler { return http.HandlerFunc(handleFrameHealth) }},
	// The device approval link in the mail (a GET shows a button; the POST approves).
	{listener: listenerFrame, pattern: "GET " + auth.ApprovePath, guard: GuardLink, handler: approveRoute(false)},
	{listener: listenerFrame, pattern: "POST " + auth.ApprovePath, guard: GuardLink, handler: approveRoute(true)},
	// The social login popup: its first page, the page's post that binds the login to the browser (its Origin is
	// the guard, docs/social.md), and the provider's redirect (GET, or POST for Apple's form_post).
	{listener: listenerFrame, pattern: "GET " + social.LoadingPath, guard: GuardLink, handler: socialPage((*social.Handler).Loading)},
	{listener: listenerFrame, pattern: "POST " + social.BeginPath, guard: GuardLink, handler: socialPage((*social.Handler).Begin)},
	{listener: listenerFrame, pattern: "GET " + social.CallbackPath, guard: GuardLink, handler: socialPage((*social.Handler).Callback)},
	{listener: listenerFrame, pattern: "POST " + social.CallbackPath, guard: GuardLink, handler: socialPage((*social.Handler).Callback)},
	// The frame's page (?projectId=; CSP frame-ancestors = the project's
	// origins) and its hashed scripts (internal/frameapp).
	{listener: listenerFrame, pattern: "GET /{$}", guard: GuardOpen, handler: frameRoute((*frameapp.Handler).ServePage)},
	{listener: listenerFrame, pattern: "GET /assets/{file}", guard: GuardOpen, handler: frameRoute((*frameapp.Handler).ServeAsset)},
}

func handlerFunc(f http.HandlerFunc) func(*Main) http.Handler {
	return func(*Main) http.Handler { return f }
}

func explorerImage(kind string) func(*Main) http.Handler {
	return func(m *Main) http.Handler { return m.http.explorer.Image(kind) }
}

func accountRoute(f func(*account.Handler, http.ResponseWriter, *http.Request)) func(*Main) http.Handler {
	return func(m *Main) http.Handler {
		h := m.account.http
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { f(h, w, r) })
	}
}

// apiServices are the handlers of the API listener that Run builds and
// the route table mounts.
type apiServices struct {
	guard     *project.Guard
	explorer  *explorer.Handler
	telemetry *telemetry.Service
	// ipLimiter caps requests per client IP (--ip-rate-limit); nil: no cap.
	ipLimiter ratelimit.Limiter
}

// guarded wraps h in the check of class g.
func (m *Main) guarded(g Guard, h http.Handler) http.Handler {
	switch g {
	case GuardOpen:
		return h
	case GuardProject:
		return m.http.guard.Require(h)
	case GuardAdmin:
		return m.http.guard.RequireAdmin(h)
	case GuardDev:
		return localHostOnly(m.http.guard.LocalOnly(h))
	case GuardFrameOrigin:
		return m.requireFrameOrigin(h)
	case GuardLink:
		return linkGuard(h)
	}
	panic(fmt.Sprintf("app: route without a guard class (%d)", g))
}

// mount builds the mux of a listener from the route table. Dev routes are
// mounted in latchd dev only. isJSONRPC reports whether a request is for a
// JSON-RPC route.
func (m *Main) mount(listener string) (h http.Handler, isJSONRPC func(*http.Request) bool) {
	mux := http.NewServeMux()
	h = mux
	jsonRPC := map[string]bool{}
	for _, rt := range routes {
		if rt.listener != listener || rt.guard == GuardDev && m.Devnet == nil {
			continue
		}
		if rt.around != nil {
			continue // applied below, around the mux
		}
		h := rt.handler(m)
		handler := m.guarded(rt.guard, h)
		if rt.alsoFrame {
			handler = m.admitFrame(handler, h)
		}
		if rt.beforeGuard != nil {
			handler = rt.beforeGuard(handler)
		}
		mux.Handle(rt.pattern, handler)
		jsonRPC[rt.pattern] = rt.jsonRPC
	}
	for _, rt := range routes {
		if rt.listener == listener && rt.around != nil {
			h = m.guarded(rt.guard, rt.around(m, h))
		}
	}
	return h, func(r *http.Request) bool {
		_, pattern := mux.Handler(r)
		return jsonRPC[pattern]
	}
}

// apiHandler is the API listener's handler: its routes, then the IP rate
// limit, request ids, logging and metrics around them.
func (m *Main) apiHandler() http.Handler {
	requests := m.Metrics.Counter("latch_http_requests_total", "HTTP requests by route and status.", "route", "status")
	latency := m.Metrics.Histogram("latch_http_request_duration_seconds", "HTTP request latency by route.", metrics.DefaultLatencyBuckets, "route")
	h, isJSONRPC := m.mount(listenerAPI)
	if m.http.ipLimiter != nil {
		h = limitIP(h, m.http.ipLimiter, m.clientIP, isJSONRPC)
	}
	return observe(h, m.Logger, requests, latency)
}

// adminHandler serves the admin listener.
func (m *Main) adminHandler() http.Handler {
	h, _ := m.mount(listenerAdmin)
	return h
}

// frameHandler serves the frame origin. Its page may be framed only by the
// project's allowed origins (CSP frame-ancestors), and the frame itself
// checks the embedding page's origin again.
func (m *Main) frameHandler() http.Handler {
	h, _ := m.mount(listenerFrame)
	return h
}

func handleHealth(w http.ResponseWriter, r *http.Request) {
	httpx.JSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// handleFallback serves the paths no other route matches: WalletConnect
// clients open the relay at "/" (any path) with ?auth=; anything else is 404.
func (m *Main) handleFallback(w http.ResponseWriter, r *http.Request) {
	if m.relay.server != nil && isWebSocketUpgrade(r) {
		m.relay.server.ServeHTTP(w, r)
		return
	}
	httpx.Error(w, r, notFound(r))
}

// RouteInfo describes a route of the table, for `latchd routes` and tests.
type RouteInfo struct {
	Listener string // "api", "admin" or "frame"
	Method   string // "" for every method
	Path     string
	Guard    Guard
}

// Routes lists every route latchd serves, dev routes included, in the
// order of the table.
func Routes() []RouteInfo {
	out := make([]RouteInfo, 0, len(routes))
	for _, rt := range routes {
		method, path, ok := strings.Cut(rt.pattern, " ")
		if !ok {
			method, path = "", rt.pattern
		}
		out = append(out, RouteInfo{Listener: rt.listener, Method: method, Path: path, Guard: rt.guard})
	}
	return out
}

// printRoutes writes the route table, one aligned route per line.
func printRoutes(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "METHOD\tPATTERN\tGUARD\tLISTENER")
	for _, r := range Routes() {
		method := r.Method
		if method == "" {
			method = "*"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", method, r.Path, r.Guard, r.Listener)
	}
	return tw.Flush()
}
