package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/latchkit/latch/internal/account"
	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/indexer"
	"github.com/latchkit/latch/internal/network"
	"github.com/latchkit/latch/internal/solana"
	"github.com/latchkit/latch/internal/solanadev"
)

// SolanaDevConfig configures latchd dev's local Solana network (internal/solanadev).
type SolanaDevConfig struct {
	Off  bool   // --dev-solana=false: latchd dev runs no Solana network
	Dir  string // --dev-solana-dir: the web/packages/solana-devnet directory; "" finds it
	Node string // --dev-solana-node: the Node.js executable
}

// solanaDevFlags binds the Solana dev network's flags.
func solanaDevFlags(fs *flag.FlagSet, cfg *Config) {
	s := &cfg.SolanaDev
	fs.BoolFunc("dev-solana", "latchd dev: run the local Solana network (LiteSVM in Node.js, "+solanadev.PackageDir+") beside the EVM dev chains (default true; false: no Solana network)", func(v string) error {
		switch v {
		case "true", "1":
			s.Off = false
		case "false", "0":
			s.Off = true
		default:
			return fmt.Errorf("--dev-solana takes true or false, not %q", v)
		}
		return nil
	})
	fs.StringVar(&s.Dir, "dev-solana-dir", "", "latchd dev: directory of the Solana dev network's Node package (default: "+solanadev.PackageDir+" found above the working directory or the executable)")
	fs.StringVar(&s.Node, "dev-solana-node", "node", "latchd dev: the Node.js executable that runs the Solana dev network")
}

// solanaDevName is the dev network's name in the network list.
const solanaDevName = "Latch Solana Dev"

// solanaDevStart is the Solana dev network starting in the background.
type solanaDevStart struct {
	done chan struct{}
	n    *solanadev.Network
	err  error
}

// beginSolanaDev starts the Solana dev network of latchd dev in the
// background (it starts while the EVM chains do); nil when it is off.
func (m *Main) beginSolanaDev(ctx context.Context) *solanaDevStart {
	cfg := m.Config
	if !cfg.Dev || cfg.SolanaDev.Off {
		if cfg.Dev {
			m.Logger.Info("Solana dev network is off (--dev-solana=false)")
		}
		return nil
	}
	s := &solanaDevStart{done: make(chan struct{})}
	m.solanaStart = s
	go func() {
		defer close(s.done)
		s.n, s.err = solanadev.Start(ctx, solanadev.Config{
			Dir:     cfg.SolanaDev.Dir,
			Node:    cfg.SolanaDev.Node,
			DataDir: cfg.DataDir,
			Logger:  m.Logger.With("component", "solana-devnet"),
		})
	}()
	return s
}

// addSolanaDev waits for the Solana dev network and registers it as a
// solana network whose upstream is its RPC server. A network that could not
// start leaves latchd dev running without Solana, and the log says why.
func (m *Main) addSolanaDev(s *solanaDevStart) error {
	if s == nil {
		return nil
	}
	<-s.done
	if s.err != nil {
		var unavailable *solanadev.UnavailableError
		if errors.As(s.err, &unavailable) {
			m.Logger.Warn("Solana dev network is off: "+unavailable.Reason, "reason", unavailable.Reason)
		} else {
			m.Logger.Error("Solana dev network is off: it failed to start", "err", s.err)
		}
		return nil
	}
	info := s.n.Info
	ref, _ := json.Marshal(info.CAIPNetworkID[len("solana:"):])
	n := &network.Network{
		CAIPNetworkID:  info.CAIPNetworkID,
		ChainNamespace: "solana",
		ID:             ref,
		Name:           solanaDevName,
		Testnet:        true,
		NativeCurrency: network.Currency{Name: "Solana", Symbol: "SOL", Decimals: 9},
		Dev:            true,
	}
	n.RPCURLs.Default.HTTP = []string{info.RPCURL}
	if err := m.Networks.Add(n); err != nil {
		s.n.Close()
		return fmt.Errorf("register the Solana dev network: %w", err)
	}
	if err := m.Networks.SetUpstreams(info.CAIPNetworkID, []string{info.RPCURL}); err != nil {
		s.n.Close()
		return err
	}
	// Its signature and slot subscriptions, through the proxy's GET /v1.
	if err := m.Networks.SetWSUpstreams(info.CAIPNetworkID, []string{info.WSURL}); err != nil {
		s.n.Close()
		return err
	}
	m.solanaDev = s.n
	m.Logger.Info("Solana dev network started", "caip_network_id", info.CAIPNetworkID, "rpc_url", info.RPCURL, "replayed", info.Replayed)
	go func() {
		<-s.n.Exited()
		if !m.solanaClosing.Load() {
			m.Logger.Error("Solana dev network stopped unexpectedly; solana requests fail until latchd dev restarts", "caip_network_id", info.CAIPNetworkID)
		}
	}()
	return nil
}

// SolanaDev is the running Solana dev network, or nil.
func (m *Main) SolanaDev() *solanadev.Network { return m.solanaDev }

// closeSolanaDev stops the Solana dev network, waiting for one still
// starting (a Run that failed part-way).
func (m *Main) closeSolanaDev() {
	s := m.solanaStart
	if s == nil {
		return
	}
	m.solanaClosing.Store(true)
	<-s.done
	if s.n != nil {
		s.n.Close()
	}
}

// DevSolana is the Solana dev network in DevInfo.
type DevSolana struct {
	CAIPNetworkID string   `json:"caipNetworkId"`
	Name          string   `json:"name"`
	RPCURL        string   `json:"rpcUrl"`
	WSURL         string   `json:"wsUrl"`
	GenesisHash   string   `json:"genesisHash"`
	Accounts      []string `json:"accounts"`
	// USDC is the dev USDC mint (SPL token, 6 decimals); each dev account holds 10,000.
	USDC DevToken `json:"usdc"`
}

// solanaDevInfo is the Solana part of DevInfo, nil without the network.
func (m *Main) solanaDevInfo() *DevSolana {
	if m.solanaDev == nil {
		return nil
	}
	i := m.solanaDev.Info
	return &DevSolana{
		CAIPNetworkID: i.CAIPNetworkID, Name: solanaDevName, RPCURL: i.RPCURL, WSURL: i.WSURL, GenesisHash: i.GenesisHash,
		Accounts: append([]string(nil), i.Accounts...),
		USDC:     DevToken{Address: i.USDCMint, Name: "USD Coin", Decimals: uint8(i.USDCDecimals)},
	}
}

// solanaAccountConfig is what account data knows of the solana networks:
// the known SPL tokens of the public ones (account.KnownSolanaTokens) and
// the dev network's USDC, each priced through the feed of the same asset on
// an EVM network where there is one (the dev USDC through the first dev
// chain's USDC feed). listed is the EVM token list per chain.
func (m *Main) solanaAccountConfig(listed map[uint64][]indexer.Token) map[string]account.SolanaNetworkConfig {
	bySymbol := func(chainID uint64, symbol string) (indexer.Token, bool) {
		for _, t := range listed[chainID] {
			if t.Symbol == symbol {
				return t, true
			}
		}
		return indexer.Token{}, false
	}
	out := map[string]account.SolanaNetworkConfig{}
	for id, tokens := range account.KnownSolanaTokens {
		nc := account.SolanaNetworkConfig{Tokens: map[string]account.SolanaToken{}}
		for _, k := range tokens {
			t := account.SolanaToken{Symbol: k.Symbol, Name: k.Name, Decimals: k.Decimals}
			if c, err := caip.ParseChainID(k.PriceNetwork); err == nil {
				if chainID, err := c.EVMChainID(); err == nil {
					if evmTok, ok := bySymbol(chainID, k.PriceSymbol); ok {
						t.PriceChain, t.PriceToken = chainID, evmTok.Address
					}
				}
			}
			nc.Tokens[k.Mint] = t
		}
		out[id] = nc
	}
	if m.solanaDev != nil && m.Devnet != nil {
		info := m.solanaDev.Info
		usdc := account.SolanaToken{Symbol: "USDC", Name: "USD Coin", Decimals: info.USDCDecimals}
		if chains := m.Devnet.Chains(); len(chains) > 0 {
			if t, ok := bySymbol(chains[0].ChainID, "USDC"); ok {
				usdc.PriceChain, usdc.PriceToken = chains[0].ChainID, t.Address
			}
		}
		out[info.CAIPNetworkID] = account.SolanaNetworkConfig{Tokens: map[string]account.SolanaToken{info.USDCMint: usdc}}
	}
	return out
}

// maxFaucetBody bounds a faucet request body; the JSON has four short fields.
const maxFaucetBody = 4 << 10

// handleFaucet serves POST /dev/faucet: a request for the Solana dev
// network (caipNetworkId solana:…) is answered here, by requestAirdrop for
// SOL or a mint of the dev USDC; every other one by the EVM dev chains'
// faucet. The answer has the same shape: txHash is the Solana signature.
func (m *Main) handleFaucet(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxFaucetBody))
	if err != nil {
		httpx.Error(w, r, apperr.Fieldf(apperr.TooLarge, "body", "Request body is larger than %d bytes", maxFaucetBody))
		return
	}
	var peek struct {
		CAIPNetworkID string `json:"caipNetworkId"`
	}
	_ = json.Unmarshal(body, &peek)
	if !strings.HasPrefix(peek.CAIPNetworkID, "solana:") {
		r.Body = io.NopCloser(bytes.NewReader(body))
		m.Devnet.HandleFaucet(w, r)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var req struct {
		Address       string `json:"address"`
		CAIPNetworkID string `json:"caipNetworkId"`
		Token         string `json:"token"`
		Amount        string `json:"amount"`
	}
	if err := httpx.DecodeJSON(w, r, maxFaucetBody, &req); err != nil {
		httpx.Error(w, r, err)
		return
	}
	n := m.solanaDev
	if n == nil || n.Info.CAIPNetworkID != req.CAIPNetworkID {
		httpx.Error(w, r, apperr.Fieldf(apperr.NotFound, "caipNetworkId", "No dev network %s: latchd dev's Solana network is %s", clipField(req.CAIPNetworkID), m.solanaDevID()))
		return
	}
	c, err := solana.NewClient([]string{n.Info.RPCURL}, nil)
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	res, err := solanadev.Faucet(r.Context(), c, n.Info.USDCMint, solanadev.FaucetRequest{Address: req.Address, Token: req.Token, Amount: req.Amount})
	if err != nil {
		httpx.Error(w, r, err)
		return
	}
	httpx.JSON(w, http.StatusOK, map[string]string{"txHash": res.Signature, "amount": res.Amount, "caipNetworkId": req.CAIPNetworkID, "token": res.Token})
}

// solanaDevID names the Solana dev network for a message ("none" when it is off).
func (m *Main) solanaDevID() string {
	if m.solanaDev == nil {
		return "off"
	}
	return m.solanaDev.Info.CAIPNetworkID
}

func clipField(s string) string {
	s = strings.ToValidUTF8(s, "?")
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}
