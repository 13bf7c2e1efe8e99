package app

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/account"
	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/evm"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/names"
	"github.com/latchkit/latch/internal/project"
	"github.com/latchkit/latch/internal/store"
)

// NamesConfig configures account names (internal/names).
type NamesConfig struct {
	Zone         string // --names-zone; "" = devNamesZone under latchd dev, no names under latchd serve
	GatewayKey   string // --names-gateway-key: hex secp256k1 key signing the ENS gateway's answers
	ReservedFile string // --names-reserved-file: more reserved names, one a line
	AccountDaily int    // --names-account-daily: names one Latch account registers a day; 0 = no limit
	IPDaily      int    // --names-ip-daily: names one client IP registers a day; 0 = no limit
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
	fs.StringVar(&n.ReservedFile, "names-reserved-file", "", "file of names no visitor may register (nor look-alikes of them), one a line, # comments; added to the built-in list (admin, support, wallet, latch, …) and the projects' names; read at start (latchd names reserve changes the list at run time)")
	fs.IntVar(&n.AccountDaily, "names-account-daily", 1, "names one Latch account (e-mail or social login) may register a day; a refused registration does not count; 0 = no limit")
	fs.IntVar(&n.IPDaily, "names-ip-daily", 1, "names one client IP (an IPv6 client's /64) may register a day; a refused registration does not count; 0 = no limit")
	return func() error {
		if n.AccountDaily < 0 || n.IPDaily < 0 {
			return fmt.Errorf("--names-account-daily and --names-ip-daily must be 0 (no limit) or more")
		}
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
	reserved := names.DefaultReserved
	if cfg.ReservedFile != "" {
		more, err := names.ReadReservedFile(cfg.ReservedFile, zone)
		if err != nil {
			return fmt.Errorf("--names-reserved-file: %w", err)
		}
		reserved = append(append([]string(nil), reserved...), more...)
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
		Reserved:     reserved,
		ProjectNames: m.projectNames,
		SmartAccount: m.namesSmartAccount,
		AccountDaily: cfg.AccountDaily,
		IPDaily:      cfg.IPDaily,
	})
	if err != nil {
		return err
	}
	h := names.NewHandler(svc, names.HandlerConfig{Limit: m.namesLimit(), Account: m.namesAccount, ClientIP: m.clientIP})
	m.names = namesService{svc: svc, http: h, gateway: names.NewGateway(svc, key, nil)}
	return nil
}

// projectNames are the names of every project, which the zone reserves.
func (m *Main) projectNames(ctx context.Context) ([]string, error) {
	list, err := m.Projects.List(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(list))
	for i, p := range list {
		out[i] = p.Name
	}
	return out, nil
}

// smartAccountFactoryABI is the account factory the bundler's networks run.
var smartAccountFactoryABI = contracts.MustLoad("LatchSmartAccountFactory").ABI

// namesSmartAccount is the embedded wallet's smart account of owner on a
// chain where latchd runs a bundler: LatchSmartAccountFactory's
// getAddress(owner, 0), the account the frame uses.
func (m *Main) namesSmartAccount(ctx context.Context, chainID uint64, owner common.Address) (common.Address, bool, error) {
	for _, n := range m.bundler.accounts {
		if n.ChainID != chainID {
			continue
		}
		if m.account.clients == nil {
			return common.Address{}, false, nil
		}
		client := m.account.clients.ForChain(chainID)
		if client == nil {
			return common.Address{}, false, nil
		}
		data, err := smartAccountFactoryABI.Pack("getAddress", owner, new(big.Int))
		if err != nil {
			return common.Address{}, false, err
		}
		out, err := client.CallContract(ctx, common.HexToAddress(n.Factory), data)
		if err != nil {
			return common.Address{}, false, err
		}
		if len(out) != 32 {
			return common.Address{}, false, fmt.Errorf("getAddress answered %d bytes", len(out))
		}
		return common.BytesToAddress(out), true, nil
	}
	return common.Address{}, false, nil
}

// namesAccount is the Latch account (auth user id) of a registration's
// auth session: the embedded wallet's frame sends its access token as
// Authorization: Bearer. "" without a token, or when e-mail and social
// login are off (no session can exist); an unknown or expired token is
// refused with auth's "Session expired".
func (m *Main) namesAccount(r *http.Request) (string, error) {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || token == "" || m.auth.svc == nil {
		return "", nil
	}
	p := project.FromContext(r.Context())
	if p == nil {
		return "", nil
	}
	a, err := m.auth.svc.Authenticate(r.Context(), p.ID, strings.TrimSpace(token))
	if err != nil {
		return "", err
	}
	return a.UserID, nil
}

// namesLimit caps name registration attempts per client IP at
// --account-rate-limit per minute: each may cost an eth_call (a smart
// account's signature). Successful registrations have their own daily
// limits (--names-account-daily, --names-ip-daily).
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

// runNames manages the operator's reserved names directly in the database
// latchd uses: every node reads them at each registration, so a change
// holds at once, without a restart.
func runNames(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const want = "want: latchd names reserve NAME | release NAME | reserved"
	if len(args) == 0 {
		return errors.New(want)
	}
	sub, args := args[0], args[1:]
	var cfg Config
	fs, finish := flagSet("latchd names "+sub, &cfg, stderr)
	// NAME may come before or after the options.
	var name string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	if err := parseFlags(fs, args, os.Getenv); err != nil {
		return err
	}
	if err := finish(); err != nil {
		return err
	}
	rest := fs.Args()
	if name == "" && len(rest) > 0 {
		name, rest = rest[0], rest[1:]
	}
	if len(rest) > 0 || (sub == "reserved") != (name == "") || sub != "reserved" && sub != "reserve" && sub != "release" {
		return errors.New(want)
	}
	zone := cfg.Names.Zone
	if zone == "" {
		zone = devNamesZone
	}
	db, err := store.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer db.Close()
	svc, err := names.New(names.Config{DB: db, Zone: zone})
	if err != nil {
		return err
	}
	switch sub {
	case "reserve":
		label, holder, err := svc.Reserve(ctx, name)
		if err != nil {
			return cliError(err)
		}
		fmt.Fprintf(stdout, "reserved %s\n", label)
		if holder != "" {
			fmt.Fprintf(stdout, "%s.%s stays registered to %s; the reservation stops new registrations of it and of names like it\n", label, zone, holder)
		}
	case "release":
		label, found, err := svc.Release(ctx, name)
		if err != nil {
			return cliError(err)
		}
		if !found {
			return fmt.Errorf("%s was not reserved with latchd names reserve (the built-in list, --names-reserved-file and projects' names are configuration)", label)
		}
		fmt.Fprintf(stdout, "released %s\n", label)
	default:
		list, err := svc.ReservedNames(ctx)
		if err != nil {
			return err
		}
		for _, r := range list {
			fmt.Fprintf(stdout, "%s\t%s\n", r.Label, r.ReservedAt.Format(time.RFC3339))
		}
	}
	return nil
}

// cliError is an apperr's message alone, as a command line shows it.
func cliError(err error) error {
	if e := apperr.As(err); e != nil {
		return errors.New(e.Message)
	}
	return err
}
