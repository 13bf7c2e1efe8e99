package app

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"

	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/devchain"
	"github.com/latchkit/latch/internal/httpx"
	"github.com/latchkit/latch/internal/network"
	"github.com/latchkit/latch/internal/project"
)

// addDevNetworks registers the running dev chains as networks whose upstream
// is their in-process node.
func (m *Main) addDevNetworks() error {
	for _, c := range m.Devnet.Chains() {
		multicall := c.Multicall3.Hex()
		n := &network.Network{
			CAIPNetworkID:  c.CAIPNetworkID,
			ChainNamespace: "eip155",
			ID:             json.RawMessage(strconv.FormatUint(c.ChainID, 10)),
			Name:           c.Name,
			Testnet:        true,
			NativeCurrency: network.Currency{Name: "Ether", Symbol: "ETH", Decimals: 18},
			Multicall3:     &multicall,
			Dev:            true,
		}
		n.RPCURLs.Default.HTTP = []string{c.RPCURL}
		if err := m.Networks.Add(n); err != nil {
			return err
		}
		if err := m.Networks.SetUpstreams(c.CAIPNetworkID, []string{c.RPCURL}); err != nil {
			return err
		}
	}
	return nil
}

// ensureDevProject returns the dev project, creating it on the first start.
// It allows only local origins (dev mode adds them to every project), and it
// has e-mail login, swaps and the on-ramp on (the demo and the browser tests
// sign in through the dev outbox, swap on latchd's own AMM and buy from the
// dev on-ramp provider). A dev database made before those existed has them
// off: every start turns them back on, so `latchd dev` always offers them.
func (m *Main) ensureDevProject(ctx context.Context) (string, error) {
	p, err := m.Projects.FindDev(ctx)
	if err == nil {
		if want := devFeatures(); !p.Features.Email || len(p.Features.Swaps) == 0 || len(p.Features.Onramp) == 0 {
			p.Features.Email = true
			if len(p.Features.Swaps) == 0 {
				p.Features.Swaps = want.Swaps
			}
			if len(p.Features.Onramp) == 0 {
				p.Features.Onramp = want.Onramp
			}
			if err := m.Projects.Update(ctx, p); err != nil {
				return "", err
			}
			m.Logger.Info("turned e-mail login, swaps and the on-ramp on for the dev project", "project_id", p.ID)
		}
		return p.ID, nil
	}
	if apperr.Code(err) != apperr.NotFound {
		return "", err
	}
	p = &project.Project{Name: "Latch dev", Dev: true, Analytics: true, Features: devFeatures()}
	if err := m.Projects.Create(ctx, p); err != nil {
		return "", err
	}
	m.Logger.Info("created dev project", "project_id", p.ID)
	return p.ID, nil
}

// devFeatures are a new project's features with e-mail login, swaps and the
// on-ramp on (the config API's default provider names).
func devFeatures() project.Features {
	f := project.DefaultFeatures()
	f.Email = true
	f.Swaps = project.SwapProviders[:1]
	f.Onramp = project.OnrampProviders[:1]
	return f
}

// DevInfo is the body of GET /dev/info: what a demo page or a test needs to
// talk to this latchd dev.
type DevInfo struct {
	ProjectID   string                         `json:"projectId"`
	APIURL      string                         `json:"apiUrl"`
	Networks    []DevNetwork                   `json:"networks"`
	Tokens      map[string]map[string]DevToken `json:"tokens"`
	FrameOrigin string                         `json:"frameOrigin"`
	DemoURL     string                         `json:"demoUrl,omitempty"`
	// AdminURL is the admin listener's base URL (GET /metrics), when there is one.
	AdminURL string   `json:"adminUrl,omitempty"`
	Accounts []string `json:"accounts"`
	Mnemonic string   `json:"mnemonic"`
	// PriceFeeds are the dev chains' USD feeds (POST /dev/price sets them): network → symbol → feed address.
	PriceFeeds map[string]map[string]string `json:"priceFeeds"`
	// Solana is the local Solana network (solana.go), absent when it is off.
	Solana *DevSolana `json:"solana,omitempty"`
}

// DevNetwork is a dev chain in DevInfo.
type DevNetwork struct {
	CAIPNetworkID string `json:"caipNetworkId"`
	ChainID       uint64 `json:"chainId"`
	Name          string `json:"name"`
	RPCURL        string `json:"rpcUrl"`
	Multicall3    string `json:"multicall3"`
	// ENSRegistry and ENSUniversalResolver are the chain's dev ENS contracts, under which the names zone resolves
	// through latchd's gateway (viem: the chain's contracts.ensRegistry and ensUniversalResolver).
	ENSRegistry          string `json:"ensRegistry"`
	ENSUniversalResolver string `json:"ensUniversalResolver"`
	// SwapRouter is the dev AMM's router (Uniswap V2 router functions), which /v1/convert quotes and builds against.
	SwapRouter string `json:"swapRouter"`
	// EntryPoint, SmartAccountFactory and VerifyingPaymaster are the chain's ERC-4337 v0.7 contracts: the bundler
	// on /v1 sends handleOps to the EntryPoint, smart accounts come from the factory, the paymaster sponsors.
	EntryPoint          string `json:"entryPoint"`
	SmartAccountFactory string `json:"smartAccountFactory"`
	VerifyingPaymaster  string `json:"verifyingPaymaster"`
}

// DevToken is a dev token in DevInfo, keyed by network and symbol.
type DevToken struct {
	Address  string `json:"address"`
	Name     string `json:"name"`
	Decimals uint8  `json:"decimals"`
}

// Info returns the dev info; only meaningful in dev mode.
func (m *Main) Info() DevInfo {
	info := DevInfo{ProjectID: m.DevProjectID, APIURL: m.APIURL(), FrameOrigin: m.FrameURL(), DemoURL: m.DemoURL(), AdminURL: m.AdminURL(), Tokens: map[string]map[string]DevToken{}, Mnemonic: m.Devnet.Mnemonic(), PriceFeeds: devchain.FeedAddresses(m.Devnet.Chains())}
	for _, c := range m.Devnet.Chains() {
		info.Networks = append(info.Networks, DevNetwork{CAIPNetworkID: c.CAIPNetworkID, ChainID: c.ChainID, Name: c.Name, RPCURL: c.RPCURL, Multicall3: c.Multicall3.Hex(),
			ENSRegistry: c.ENSRegistry.Hex(), ENSUniversalResolver: c.ENSUniversalResolver.Hex(), SwapRouter: c.SwapRouter.Hex(),
			EntryPoint: c.EntryPoint.Hex(), SmartAccountFactory: c.SmartAccountFactory.Hex(), VerifyingPaymaster: c.VerifyingPaymaster.Hex()})
		tokens := map[string]DevToken{}
		for _, t := range c.Tokens {
			tokens[t.Symbol] = DevToken{Address: t.Address.Hex(), Name: t.Name, Decimals: t.Decimals}
		}
		info.Tokens[c.CAIPNetworkID] = tokens
	}
	if info.Solana = m.solanaDevInfo(); info.Solana != nil {
		info.Tokens[info.Solana.CAIPNetworkID] = map[string]DevToken{"USDC": info.Solana.USDC}
	}
	for _, a := range m.Devnet.Accounts() {
		info.Accounts = append(info.Accounts, a.Hex())
	}
	return info
}

func (m *Main) handleDevInfo(w http.ResponseWriter, r *http.Request) {
	httpx.JSON(w, http.StatusOK, m.Info())
}

// localHostOnly refuses a request whose Host is not local: a DNS-rebinding
// page reaches 127.0.0.1 under its own name and, being same-origin there,
// sends no Origin on a GET. An IP address as Host cannot be such a name.
func localHostOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isLocalHost(r.Host) {
			host := r.Host
			if len(host) > 100 {
				host = host[:100] + "…"
			}
			httpx.Error(w, r, apperr.Fieldf(apperr.Forbidden, "Host", "Host not allowed: %s; dev routes answer only under localhost or an IP address", strings.ToValidUTF8(host, "?")))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isLocalHost reports whether a Host header names localhost (or a
// *.localhost name, which resolves to loopback) or is an IP address.
func isLocalHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

func notFound(r *http.Request) error {
	path := r.URL.Path
	if len(path) > 100 {
		path = path[:100] + "…"
	}
	return apperr.Fieldf(apperr.NotFound, "path", "No route %s %s", r.Method, strings.ToValidUTF8(path, "?"))
}
