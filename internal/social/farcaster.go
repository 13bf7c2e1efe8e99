package social

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"fmt"
	"math/big"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/auth"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
	"github.com/latchkit/latch/pkg/siwx"
)

// Farcaster is the social name of Sign In With Farcaster (spec §9's default
// socials). It is not an OAuth provider: the visitor signs an EIP-4361
// message with their Farcaster account's custody key in a Farcaster client,
// which posts it to a channel latchd serves (the relay flow Farcaster
// clients use); latchd checks the signer against the ID registry.
const Farcaster = "farcaster"

// ChannelTTL is how long a Farcaster channel waits for the client.
const ChannelTTL = 10 * time.Minute

// Farcaster limits per client IP, over IPWindow. The status poll runs every
// 1.5 s while the QR code shows, so it gets more.
const (
	IPChannelLimit      = 30
	IPAuthenticateLimit = 60
	IPStatusLimit       = 1200
)

// The paths of the Farcaster routes (docs/social.md). FarcasterRelayPath is
// where a Farcaster client posts the signed message; the URI carries it.
const (
	FarcasterChannelPath = "/auth/v1/farcaster/channel"
	FarcasterRelayPath   = "/auth/v1/farcaster/channel/authenticate"
	FarcasterStatusPath  = "/auth/v1/farcaster/channel/status"
	FarcasterConnectPath = "/auth/v1/farcaster/connect"
)

// The Farcaster messages.
const (
	MsgFarcasterOff          = "Farcaster login is not configured on this server: set --farcaster-id-registry and --farcaster-network"
	MsgFarcasterNotEnabled   = "Social login with Farcaster is not enabled for this project"
	MsgUnknownChannel        = "Unknown Farcaster channel: please start again"
	MsgChannelExpired        = "This Farcaster sign-in has expired: please start again"
	MsgChannelCompleted      = "This Farcaster sign-in was already completed"
	MsgChannelUsed           = "This Farcaster sign-in was already used: please start again"
	MsgChannelPending        = "The Farcaster sign-in is not completed yet"
	MsgFarcasterResource     = "The message must name the signing account in a farcaster://fid/<fid> resource"
	MsgFarcasterFIDMismatch  = "The message's farcaster://fid resource is not the fid the client sent"
	MsgFarcasterNotCustody   = "The message is not signed by the custody address of fid %d"
	MsgFarcasterNoFID        = "fid %d is not registered in the Farcaster ID registry"
	MsgFarcasterRegistryDown = "The Farcaster ID registry could not be read; try again later"
)

// FarcasterConfig is where latchd reads custody addresses: the ID registry
// contract on one EVM network (Optimism in production, the dev copy on the
// dev chains), through latchd's own RPC upstreams.
type FarcasterConfig struct {
	// Network is the registry's CAIP-2 network, e.g. "eip155:10". A signed
	// message's Chain ID must be its reference.
	Network string
	// Registry is the ID registry's address (custodyOf(uint256)).
	Registry common.Address
	// Caller runs eth_call on Network.
	Caller siwx.EthCaller
	// RelayURL is latchd's public API URL: the channel URI tells the
	// Farcaster client to post to RelayURL + FarcasterRelayPath.
	RelayURL func() string
}

// FarcasterAvailable reports whether p offers Farcaster: latchd has an ID
// registry and the project lists farcaster in its socials (latchd dev's
// project: always).
func (s *Service) FarcasterAvailable(p *project.Project) bool {
	return s.cfg.Farcaster != nil && s.enabled(p, Farcaster)
}

func (s *Service) farcasterAllowed(p *project.Project) error {
	if s.cfg.Farcaster == nil {
		return apperr.Errorf(apperr.Unavailable, MsgFarcasterOff)
	}
	if !s.enabled(p, Farcaster) {
		return apperr.Fieldf(apperr.Forbidden, "provider", MsgFarcasterNotEnabled)
	}
	return nil
}

// ChannelRequest opens a Farcaster channel for the frame.
type ChannelRequest struct {
	Project  *project.Project
	DeviceID string
	// CodeChallenge is the S256 challenge of a verifier the frame keeps: the
	// channel token travels in the QR code, so the connect needs the verifier.
	CodeChallenge string
	// ParentOrigin is the page asking for the sign-in: its host is the
	// message's domain, the origin its URI.
	ParentOrigin string
	IP           string
}

// Channel is an open Farcaster channel.
type Channel struct {
	ChannelToken string `json:"channelToken"`
	// URL is the farcaster://connect URI the QR code shows.
	URL       string `json:"url"`
	Nonce     string `json:"nonce"`
	ExpiresAt string `json:"expiresAt"`
}

// CreateChannel opens a channel and returns its token and URI. Errors:
// unavailable (MsgFarcasterOff), forbidden (MsgFarcasterNotEnabled, an
// origin not the project's), invalid (deviceId, codeChallenge,
// parentOrigin), rate_limited.
func (s *Service) CreateChannel(ctx context.Context, r ChannelRequest) (*Channel, error) {
	if err := s.farcasterAllowed(r.Project); err != nil {
		return nil, err
	}
	if err := validDeviceID(r.DeviceID); err != nil {
		return nil, err
	}
	if !validChallenge(r.CodeChallenge) {
		return nil, apperr.Fieldf(apperr.Invalid, "codeChallenge", "codeChallenge must be the 43-character base64url SHA-256 of the PKCE verifier (S256)")
	}
	origin, err := parseOrigin(r.ParentOrigin)
	if err != nil {
		return nil, err
	}
	if !r.Project.AllowsOrigin(origin, s.cfg.LocalOrigins) {
		return nil, apperr.Fieldf(apperr.Forbidden, "parentOrigin", "Origin not allowed: %s is not on this project's allowlist", truncateString(origin, 100))
	}
	if err := s.allow(ctx, s.cfg.IPChannelLimiter, r.IP, "Farcaster sign-ins per IP"); err != nil {
		return nil, err
	}
	u, _ := url.Parse(origin)
	token, nonce := newToken(), newNonce()
	now := s.now()
	expires := now.Add(ChannelTTL)
	if _, err := s.db.Exec(ctx, `DELETE FROM farcaster_channels WHERE expires_at < ?`, ms(now.Add(-time.Hour))); err != nil {
		return nil, err
	}
	if _, err := s.db.Exec(ctx, `INSERT INTO farcaster_channels (token_hash, project_id, device_id, code_challenge, nonce, domain, siwe_uri, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, hash(token), r.Project.ID, r.DeviceID, r.CodeChallenge, nonce, u.Host, origin, ms(now), ms(expires)); err != nil {
		return nil, err
	}
	q := url.Values{
		"channelToken":   {token},
		"nonce":          {nonce},
		"siweUri":        {origin},
		"domain":         {u.Host},
		"notBefore":      {now.UTC().Format(time.RFC3339)},
		"expirationTime": {expires.UTC().Format(time.RFC3339)},
		"chainId":        {s.farcasterChainRef()},
		"relay":          {strings.TrimRight(s.cfg.Farcaster.RelayURL(), "/") + FarcasterRelayPath},
	}
	return &Channel{ChannelToken: token, URL: "farcaster://connect?" + q.Encode(), Nonce: nonce, ExpiresAt: expires.UTC().Format(time.RFC3339)}, nil
}

// farcasterChainRef is the registry network's reference ("10").
func (s *Service) farcasterChainRef() string {
	_, ref, _ := strings.Cut(s.cfg.Farcaster.Network, ":")
	return ref
}

// FarcasterAuth is what a Farcaster client posts to a channel.
type FarcasterAuth struct {
	ChannelToken string
	Message      string
	Signature    string
	FID          uint64
	Username     string
	IP           string
}

type channel struct {
	projectID, deviceID, challenge, nonce, domain, siweURI string
	expires                                                int64
	completed, consumed                                    *int64
	fid                                                    *int64
	username                                               string
}

func (s *Service) loadChannel(ctx context.Context, token string) (channel, error) {
	var c channel
	if token == "" || len(token) > 128 {
		return c, apperr.Fieldf(apperr.Unauthorized, "channelToken", MsgUnknownChannel)
	}
	err := s.db.QueryRow(ctx, `SELECT project_id, device_id, code_challenge, nonce, domain, siwe_uri, expires_at, completed_at, consumed_at, fid, username
		FROM farcaster_channels WHERE token_hash = ?`, hash(token)).
		Scan(&c.projectID, &c.deviceID, &c.challenge, &c.nonce, &c.domain, &c.siweURI, &c.expires, &c.completed, &c.consumed, &c.fid, &c.username)
	switch {
	case store.IsNoRows(err):
		return c, apperr.Fieldf(apperr.Unauthorized, "channelToken", MsgUnknownChannel)
	case err != nil:
		return c, err
	}
	return c, nil
}

// Authenticate takes a Farcaster client's signed Sign In With Farcaster
// message for a channel: an EIP-4361 message for the channel's domain and
// nonce, on the registry's chain, unexpired, with a farcaster://fid/<fid>
// resource, signed by the address the ID registry holds as fid's custody.
// A refused message leaves the channel waiting and stores nothing. Errors:
// unauthorized (MsgUnknownChannel, a bad signature, MsgFarcasterNotCustody),
// invalid (the message's fields, MsgChannelExpired, MsgChannelCompleted),
// rate_limited, unavailable (the registry could not be read).
func (s *Service) Authenticate(ctx context.Context, r FarcasterAuth) error {
	if s.cfg.Farcaster == nil {
		return apperr.Errorf(apperr.Unavailable, MsgFarcasterOff)
	}
	if err := s.allow(ctx, s.cfg.IPAuthenticateLimiter, r.IP, "Farcaster sign-in messages per IP"); err != nil {
		return err
	}
	c, err := s.loadChannel(ctx, r.ChannelToken)
	if err != nil {
		return err
	}
	now := s.now()
	switch {
	case c.completed != nil || c.consumed != nil:
		return apperr.Fieldf(apperr.Invalid, "channelToken", MsgChannelCompleted)
	case c.expires <= ms(now):
		return apperr.Fieldf(apperr.Invalid, "channelToken", MsgChannelExpired)
	}
	fc := s.cfg.Farcaster
	// A custody address may be a smart account (ERC-1271): its check runs on the registry's network.
	v := &siwx.Verifier{Now: s.cfg.Now, Chains: func(id string) (siwx.EthCaller, error) {
		if id != fc.Network {
			return nil, fmt.Errorf("not the ID registry's network %s", fc.Network)
		}
		return fc.Caller, nil
	}}
	m, err := siwx.ParseMessage(r.Message)
	if err != nil {
		return siwxError(err)
	}
	if m.Namespace != siwx.EIP155 {
		return apperr.Fieldf(apperr.Invalid, "message", "A Sign In With Farcaster message is for an Ethereum account")
	}
	if err := v.Check(m, siwx.Expect{
		Domain:   func(d string) bool { return d == c.domain },
		Nonce:    c.nonce,
		ChainIDs: []string{fc.Network},
	}); err != nil {
		return siwxError(err)
	}
	fid, err := resourceFID(m.Resources)
	if err != nil {
		return err
	}
	if r.FID != 0 && r.FID != fid {
		return apperr.Fieldf(apperr.Invalid, "fid", MsgFarcasterFIDMismatch)
	}
	if _, err := v.VerifySignature(ctx, m, r.Message, r.Signature); err != nil {
		return siwxError(err)
	}
	custody, err := s.custodyOf(ctx, fid)
	if err != nil {
		return err
	}
	if !strings.EqualFold(custody.Hex(), m.Address) {
		return apperr.Fieldf(apperr.Unauthorized, "signature", MsgFarcasterNotCustody, fid)
	}
	username := sanitizeUsername(r.Username)
	if username == "" {
		username = "fid:" + strconv.FormatUint(fid, 10)
	}
	res, err := s.db.Exec(ctx, `UPDATE farcaster_channels SET completed_at = ?, fid = ?, username = ?, message = ?, signature = ?
		WHERE token_hash = ? AND completed_at IS NULL AND consumed_at IS NULL AND expires_at > ?`,
		ms(now), int64(fid), username, r.Message, r.Signature, hash(r.ChannelToken), ms(now))
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return apperr.Fieldf(apperr.Invalid, "channelToken", MsgChannelCompleted)
	}
	return nil
}

// resourceFID reads the one farcaster://fid/<fid> resource of a message.
func resourceFID(resources []string) (uint64, error) {
	var fid uint64
	for _, r := range resources {
		rest, ok := strings.CutPrefix(r, "farcaster://fid/")
		if !ok {
			continue
		}
		n, err := strconv.ParseUint(rest, 10, 63)
		if err != nil || n == 0 || fid != 0 {
			return 0, apperr.Fieldf(apperr.Invalid, "message", MsgFarcasterResource)
		}
		fid = n
	}
	if fid == 0 {
		return 0, apperr.Fieldf(apperr.Invalid, "message", MsgFarcasterResource)
	}
	return fid, nil
}

// custodySelector is custodyOf(uint256)'s selector.
var custodySelector = common.FromHex("0x65269e47")

// custodyOf reads fid's custody address from the ID registry.
func (s *Service) custodyOf(ctx context.Context, fid uint64) (common.Address, error) {
	fc := s.cfg.Farcaster
	data := append(append([]byte{}, custodySelector...), common.LeftPadBytes(new(big.Int).SetUint64(fid).Bytes(), 32)...)
	out, err := fc.Caller.EthCall(ctx, &fc.Registry, data)
	if err != nil || len(out) != 32 {
		s.cfg.Logger.WarnContext(ctx, "farcaster: custodyOf failed", "network", fc.Network, "registry", fc.Registry.Hex(), "fid", fid, "err", err, "len", len(out))
		return common.Address{}, apperr.Errorf(apperr.Unavailable, MsgFarcasterRegistryDown)
	}
	a := common.BytesToAddress(out)
	if a == (common.Address{}) {
		return a, apperr.Fieldf(apperr.Unauthorized, "fid", MsgFarcasterNoFID, fid)
	}
	return a, nil
}

// siwxError maps pkg/siwx's refusals to latchd's errors.
func siwxError(err error) error {
	if e, ok := err.(*siwx.Error); ok {
		code := apperr.Invalid
		if e.Field == "signature" {
			code = apperr.Unauthorized
		}
		return apperr.Fieldf(code, or(e.Field, "message"), "%s", e.Message)
	}
	return err
}

// FarcasterStatus is a channel's state for the frame's poll.
type FarcasterStatus struct {
	State     string `json:"state"` // "pending" or "completed"
	ExpiresAt string `json:"expiresAt"`
}

// ChannelStatus answers the frame's poll: pending until the client posted a
// valid message, then completed. Errors: unauthorized (MsgUnknownChannel,
// or another project's channel), forbidden (another device), invalid
// (MsgChannelExpired, MsgChannelUsed), rate_limited.
func (s *Service) ChannelStatus(ctx context.Context, p *project.Project, token, deviceID, ip string) (*FarcasterStatus, error) {
	if err := s.allow(ctx, s.cfg.IPStatusLimiter, ip, "Farcaster status checks per IP"); err != nil {
		return nil, err
	}
	c, err := s.frameChannel(ctx, p, token, deviceID)
	if err != nil {
		return nil, err
	}
	st := &FarcasterStatus{State: "pending", ExpiresAt: time.UnixMilli(c.expires).UTC().Format(time.RFC3339)}
	if c.completed != nil {
		st.State = "completed"
	}
	return st, nil
}

// frameChannel loads a channel for its frame: this project's, this device's,
// unspent and unexpired (a completed channel stays valid until spent).
func (s *Service) frameChannel(ctx context.Context, p *project.Project, token, deviceID string) (channel, error) {
	if err := validDeviceID(deviceID); err != nil {
		return channel{}, err
	}
	c, err := s.loadChannel(ctx, token)
	if err != nil {
		return c, err
	}
	switch {
	case c.projectID != p.ID:
		return c, apperr.Fieldf(apperr.Unauthorized, "channelToken", MsgUnknownChannel)
	case subtle.ConstantTimeCompare([]byte(c.deviceID), []byte(deviceID)) != 1:
		return c, apperr.Fieldf(apperr.Forbidden, "deviceId", "This Farcaster sign-in was started on another device")
	case c.consumed != nil:
		return c, apperr.Fieldf(apperr.Invalid, "channelToken", MsgChannelUsed)
	case c.expires <= ms(s.now()):
		return c, apperr.Fieldf(apperr.Invalid, "channelToken", MsgChannelExpired)
	}
	return c, nil
}

// FarcasterConnectRequest spends a completed channel for a session.
type FarcasterConnectRequest struct {
	Project      *project.Project
	ChannelToken string
	CodeVerifier string
	DeviceID     string
	IP           string
	UserAgent    string
}

// ConnectFarcaster spends a completed channel (once: the first try, right
// or wrong) and opens a session for its fid on the same accounts as the
// other social logins (identity farcaster/<fid>, no e-mail). Errors: those
// of ChannelStatus, invalid (MsgWrongVerifier, MsgChannelPending),
// rate_limited.
func (s *Service) ConnectFarcaster(ctx context.Context, r FarcasterConnectRequest) (*ConnectResult, error) {
	if len(r.CodeVerifier) < 43 || len(r.CodeVerifier) > 128 {
		return nil, apperr.Fieldf(apperr.Invalid, "codeVerifier", "codeVerifier must be 43 to 128 characters (RFC 7636)")
	}
	if err := s.allow(ctx, s.cfg.IPConnectLimiter, r.IP, "social login checks per IP"); err != nil {
		return nil, err
	}
	c, err := s.frameChannel(ctx, r.Project, r.ChannelToken, r.DeviceID)
	if err != nil {
		return nil, err
	}
	if c.completed == nil || c.fid == nil {
		return nil, apperr.Fieldf(apperr.Invalid, "channelToken", MsgChannelPending)
	}
	res, err := s.db.Exec(ctx, `UPDATE farcaster_channels SET consumed_at = ? WHERE token_hash = ? AND consumed_at IS NULL`, ms(s.now()), hash(r.ChannelToken))
	if err != nil {
		return nil, err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return nil, apperr.Fieldf(apperr.Invalid, "channelToken", MsgChannelUsed)
	}
	if subtle.ConstantTimeCompare([]byte(challengeOf(r.CodeVerifier)), []byte(c.challenge)) != 1 {
		return nil, apperr.Fieldf(apperr.Invalid, "codeVerifier", MsgWrongVerifier)
	}
	id := auth.SocialIdentity{Provider: Farcaster, Subject: strconv.FormatInt(*c.fid, 10), Username: c.username}
	sess, err := s.cfg.Auth.SocialLogin(ctx, auth.SocialLoginRequest{ProjectID: r.Project.ID, DeviceID: r.DeviceID, UserAgent: r.UserAgent, Identity: id})
	if err != nil {
		return nil, err
	}
	return &ConnectResult{Session: sess, Provider: Farcaster, Username: c.username}, nil
}

// newNonce is an EIP-4361 nonce: 16 alphanumeric characters.
func newNonce() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := make([]byte, 16)
	rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// sanitizeUsername keeps a Farcaster username's own characters (fnames are
// a-z 0-9 - and ".eth" names), at most 64.
func sanitizeUsername(u string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(u) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_' {
			b.WriteRune(r)
		}
	}
	return truncateString(b.String(), 64)
}

// specOrder is spec §9's default socials.
var specOrder = []string{Google, X, Farcaster, Discord, Apple, GitHub, Facebook}

// InSpecOrder sorts social names in spec §9's default order (google, x,
// farcaster, discord, apple, github, facebook).
func InSpecOrder(names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range specOrder {
		for _, have := range names {
			if have == n {
				out = append(out, n)
				break
			}
		}
	}
	return out
}
