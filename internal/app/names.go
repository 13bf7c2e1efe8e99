package app

import (
	"context"
	"crypto/ecdsa"
	"flag"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/account"
	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/evm"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/names"
)

// NamesConfig configures account names (internal/names).
type NamesConfig struct {
	Zone       string // --names-zone; "" = devNamesZone under latchd dev, no names under latchd serve
	GatewayKey string // --names-gateway-key: hex secp256k1 key signing the ENS gateway's answers
}

// devNamesZone is latchd dev's zone when --names-zone is not set.
const devNamesZone = "latch.test"

// namesService is the names state in Main; svc is nil when the deployment
// has no zone.
type namesService struct {
	svc     *names.Service
	http    *names.Handler
	gateway *names.Gateway
}

// namesFlags binds the names flags and returns their check.
func namesFlags(fs *flag.FlagSet, cfg *Config) func() error {
	n := &cfg.Names
	fs.StringVar(&n.Zone, "names-zone", "", "zone of the account names latchd registers (e.g. names.example.com, a name whose ENS resolver is an OffchainResolver pointing at this latchd); latchd dev defaults to "+devNamesZone+"; empty under latchd serve: no names")
	fs.StringVar(&n.GatewayKey, "names-gateway-key", "", "hex secp256k1 private key signing the answers of the ENS offchain resolver gateway (its address is the resolver's trusted signer); latchd dev makes one per start; empty under latchd serve: the gateway answers 503 (secret; prefer LATCH_NAMES_GATEWAY_KEY)")
	return func() error {
		if n.Zone != "" {
			if err := names.ValidateZone(n.Zone); err != nil {
				return fmt.Errorf("--names-zone: %w", err)
			}
		}
		if n.GatewayKey != "" {
			if _, err := parseGatewayKey(n.GatewayKey); err != nil {
				return err
			}
		}
		return nil
	}
}

// parseGatewayKey reads --names-gateway-key; its error never holds the key.
func parseGatewayKey(s string) (*ecdsa.PrivateKey, error) {
	key, err := crypto.HexToECDSA(strings.TrimPrefix(strings.TrimSpace(s), "0x"))
	if err != nil {
		return nil, fmt.Errorf("--names-gateway-key must be a 32-byte secp256k1 private key in hex")
	}
	return key, nil
}

// Names registers and looks up account names; nil before Run or without a zone.
func (m *Main) Names() *names.Service { return m.names.svc }

// NamesGatewaySigner is the address that signs the ENS gateway's answers;
// zero without a key.
func (m *Main) NamesGatewaySigner() common.Address {
	if m.names.gateway == nil {
		return common.Address{}
	}
	return m.names.gateway.Signer()
}

// startNames builds the names service of the configured zone. Signatures of
// smart accounts are checked on the chain the coin type names, through the
// account data's RPC clients.
func (m *Main) startNames(ctx context.Context) error {
	cfg := m.Config.Names
	zone := cfg.Zone
	if zone == "" && m.Config.Dev {
		zone = devNamesZone
	}
	if zone == "" {
		return nil
	}
	var key *ecdsa.PrivateKey
	var err error
	switch {
	case cfg.GatewayKey != "":
		if key, err = parseGatewayKey(cfg.GatewayKey); err != nil {
			return err
		}
	case m.Config.Dev:
		// The dev chains start from genesis, and SetNamesGateway deploys a
		// resolver trusting this key, so a fresh key per start is enough.
		if key, err = crypto.GenerateKey(); err != nil {
			return err
		}
	default:
		m.Logger.Warn("names: no --names-gateway-key; the ENS gateway answers 503", "zone", zone)
	}
	svc, err := names.New(names.Config{
		DB: m.DB, Zone: zone,
		Verifier: names.SignatureVerifier{Client: func(chainID uint64) *evm.Client {
			if m.account.clients == nil {
				return nil
			}
			return m.account.clients.ForChain(chainID)
		}},
		ChainSupported: func(chainID uint64) bool {
			return m.Networks.Get(caip.EVMNetworkID(chainID)) != nil
		},
		Logger: m.Logger.With("component", "names"),
		// The account's cached identity (5 min) would hide its new name.
		Registered: func(ctx context.Context, addr common.Address) {
			if m.account.svc == nil {
				return
			}
			if err := m.account.svc.RefreshIdentity(ctx, addr); err != nil {
				m.Logger.Warn("names: refresh identity", "address", addr.Hex(), "err", err)
			}
		},
	})
	if err != nil {
		return err
	}
	m.names = namesService{svc: svc, http: names.NewHandler(svc, m.namesLimit()), gateway: names.NewGateway(svc, key, nil)}
	return nil
}

// namesLimit caps name registrations per client IP at --account-rate-limit
// per minute: each may cost an eth_call (a smart account's signature).
func (m *Main) namesLimit() func(*http.Request) (time.Duration, bool) {
	if m.Config.AccountRateLimit <= 0 {
		return nil
	}
	limiter := m.newLimiter("names", m.Config.AccountRateLimit, time.Minute)
	return func(r *http.Request) (time.Duration, bool) {
		d, err := limiter.Allow(r.Context(), m.clientIP(r))
		if err != nil {
			// A limiter failure must not take registration down.
			m.Logger.Warn("names rate limiter", "err", err)
			return 0, true
		}
		return d.RetryAfter, d.Allowed
	}
}

// startDevNames points the zone at this latchd's gateway on the dev chains;
// it needs the API listener's address, so Run calls it after listening.
func (m *Main) startDevNames(ctx context.Context) error {
	if m.Devnet == nil || m.names.svc == nil {
		return nil
	}
	url := names.GatewayURL(m.PublicAPIURL())
	if err := m.Devnet.SetNamesGateway(ctx, m.names.svc.Zone(), url, m.names.gateway.Signer()); err != nil {
		return fmt.Errorf("point %s at the names gateway: %w", m.names.svc.Zone(), err)
	}
	return nil
}

// namesRoute serves a profile route, or 404 when latchd has no zone.
func namesRoute(f func(*names.Handler, http.ResponseWriter, *http.Request)) func(*Main) http.Handler {
	return func(m *Main) http.Handler {
		h := m.names.http
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if h == nil {
				httpx.Error(w, r, apperr.Errorf(apperr.NotFound, "This server registers no names (no --names-zone)"))
				return
			}
			f(h, w, r)
		})
	}
}

// namesGatewayRoute serves the ENS gateway to any origin: ENS clients in any
// page call it, and its answers are public and signed.
func namesGatewayRoute(m *Main) http.Handler {
	g := m.names.gateway
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		if g == nil {
			httpx.JSON(w, http.StatusNotFound, map[string]string{"message": "This server registers no names (no --names-zone)"})
			return
		}
		g.ServeHTTP(w, r)
	})
}

// namesIdentity is the names service as an identity resolver: the fallback
// after ENS (spec §7), so an account with a Latch name shows it.
type namesIdentity struct{ svc *names.Service }

// ReverseName implements account.NameResolver. A name of the zone is one
// the address registered, so it always resolves forward to it.
func (n namesIdentity) ReverseName(ctx context.Context, addr common.Address) (account.Identity, error) {
	recs, err := n.svc.Reverse(ctx, addr)
	if err != nil || len(recs) == 0 {
		return account.Identity{}, err
	}
	id := account.Identity{Name: &recs[0].Name}
	if avatar := recs[0].Attributes["avatar"]; avatar != "" {
		id.Avatar = &avatar
	}
	return id, nil
}
