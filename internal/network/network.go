// Package network is the registry of the networks latchd knows (data/networks.json
// plus the dev networks) and of the RPC upstreams the operator configured for them.
package network

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/latchkit/latch/internal/caip"
	"github.com/latchkit/latch/internal/httpx"
)

// Currency is a network's native currency.
type Currency struct {
	Name     string `json:"name"`
	Symbol   string `json:"symbol"`
	Decimals int    `json:"decimals"`
}

// Explorer is a block explorer.
type Explorer struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

// Network is one chain (spec §3 Network).
type Network struct {
	CAIPNetworkID  string          `json:"caipNetworkId"`
	ChainNamespace string          `json:"chainNamespace"`
	ID             json.RawMessage `json:"id"` // a number for eip155, a string otherwise
	Name           string          `json:"name"`
	Testnet        bool            `json:"testnet"`
	NativeCurrency Currency        `json:"nativeCurrency"`
	RPCURLs        struct {
		Default struct {
			HTTP []string `json:"http"`
		} `json:"default"`
	} `json:"rpcUrls"`
	BlockExplorers struct {
		Default *Explorer `json:"default,omitempty"`
	} `json:"blockExplorers"`
	Multicall3 *string `json:"multicall3"`
	// Dev marks an in-process dev network of latchd dev.
	Dev bool `json:"dev,omitempty"`
}

// Registry holds networks and their upstreams. It is safe for concurrent use.
type Registry struct {
	mu        sync.RWMutex
	networks  map[string]*Network
	order     []string
	upstreams map[string][]string
	// wsUpstreams are the WebSocket endpoints (subscriptions) per network.
	wsUpstreams map[string][]string
}

// Load parses networks.json into a new registry, validating every entry.
func Load(raw []byte) (*Registry, error) {
	var list []*Network
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("networks.json: %w", err)
	}
	r := &Registry{networks: map[string]*Network{}, upstreams: map[string][]string{}, wsUpstreams: map[string][]string{}}
	for i, n := range list {
		if err := r.Add(n); err != nil {
			return nil, fmt.Errorf("networks.json entry %d: %w", i, err)
		}
	}
	return r, nil
}

// Add registers a network. Errors: an invalid CAIP-2 id, a namespace that does
// not match it, a missing name, or a duplicate.
func (r *Registry) Add(n *Network) error {
	c, err := caip.ParseChainID(n.CAIPNetworkID)
	if err != nil {
		return err
	}
	if n.ChainNamespace != c.Namespace {
		return fmt.Errorf("%s: chainNamespace %q does not match", n.CAIPNetworkID, n.ChainNamespace)
	}
	if strings.TrimSpace(n.Name) == "" {
		return fmt.Errorf("%s: name is required", n.CAIPNetworkID)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.networks[n.CAIPNetworkID]; dup {
		return fmt.Errorf("%s: listed twice", n.CAIPNetworkID)
	}
	r.networks[n.CAIPNetworkID] = n
	r.order = append(r.order, n.CAIPNetworkID)
	return nil
}

// Get returns the network with the CAIP-2 id, or nil.
func (r *Registry) Get(caipNetworkID string) *Network {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.networks[caipNetworkID]
}

// Find returns the network an asset image id names: its CAIP-2 id, or its
// own id ("1" for Ethereum, a string id with or without its quotes); nil
// when none does.
func (r *Registry) Find(id string) *Network {
	if n := r.Get(id); n != nil {
		return n
	}
	for _, n := range r.All() {
		if string(n.ID) == id || string(n.ID) == `"`+id+`"` {
			return n
		}
	}
	return nil
}

// All returns every network in registration order.
func (r *Registry) All() []*Network {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Network, 0, len(r.order))
	for _, id := range r.order {
		out = append(out, r.networks[id])
	}
	return out
}

// SetUpstreams sets the RPC upstream URLs of a known network.
func (r *Registry) SetUpstreams(caipNetworkID string, urls []string) error {
	return r.setUpstreams(r.upstreams, "RPC", []string{"http", "https"}, caipNetworkID, urls)
}

// SetWSUpstreams sets the WebSocket upstream URLs (ws or wss) of a known
// network, which the RPC proxy's subscriptions go to.
func (r *Registry) SetWSUpstreams(caipNetworkID string, urls []string) error {
	return r.setUpstreams(r.wsUpstreams, "WebSocket", []string{"ws", "wss"}, caipNetworkID, urls)
}

func (r *Registry) setUpstreams(into map[string][]string, kind string, schemes []string, caipNetworkID string, urls []string) error {
	if r.Get(caipNetworkID) == nil {
		return fmt.Errorf("%s upstream for unknown network %s", kind, caipNetworkID)
	}
	for _, u := range urls {
		p, err := url.Parse(u)
		if err != nil || !slices.Contains(schemes, p.Scheme) || p.Host == "" {
			return fmt.Errorf("%s upstream for %s: %q is not a %s URL", kind, caipNetworkID, u, strings.Join(schemes, " or "))
		}
	}
	r.mu.Lock()
	into[caipNetworkID] = append([]string(nil), urls...)
	r.mu.Unlock()
	return nil
}

// Upstreams returns the RPC upstream URLs configured for a network.
func (r *Registry) Upstreams(caipNetworkID string) []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.upstreams[caipNetworkID]
}

// WSUpstreams returns the WebSocket upstream URLs configured for a network.
func (r *Registry) WSUpstreams(caipNetworkID string) []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.wsUpstreams[caipNetworkID]
}

// Supported returns the CAIP-2 ids of the networks that have an upstream, sorted.
func (r *Registry) Supported() []string { return r.supported(r.upstreams) }

// SupportedWS returns the CAIP-2 ids of the networks that have a WebSocket upstream, sorted.
func (r *Registry) SupportedWS() []string { return r.supported(r.wsUpstreams) }

func (r *Registry) supported(from map[string][]string) []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, 0, len(from))
	for id, urls := range from {
		if len(urls) > 0 {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// ParseUpstreamFlag parses "eip155:1=https://a,https://b" as given to --rpc-upstream (and --rpc-ws-upstream).
func ParseUpstreamFlag(s string) (caipNetworkID string, urls []string, err error) {
	id, list, ok := strings.Cut(s, "=")
	if !ok || list == "" {
		return "", nil, fmt.Errorf("rpc upstream %q: want <caip2>=<url>[,<url>…]", s)
	}
	if _, err := caip.ParseChainID(id); err != nil {
		return "", nil, err
	}
	for _, u := range strings.Split(list, ",") {
		urls = append(urls, strings.TrimSpace(u))
	}
	return id, urls, nil
}

// HandleSupportedChains serves GET /v1/supported-chains (api-shapes §3.0).
// ws lists the networks whose subscriptions the proxy serves (GET /v1 upgraded).
func (r *Registry) HandleSupportedChains(w http.ResponseWriter, req *http.Request) {
	w.Header().Set("Cache-Control", "public, max-age=60")
	httpx.JSON(w, http.StatusOK, map[string][]string{"http": r.Supported(), "ws": r.SupportedWS()})
}

// HandleNetworks serves GET /v1/networks: every known network, with whether
// latchd can serve it (our own addition; the widget's network list uses it).
func (r *Registry) HandleNetworks(w http.ResponseWriter, req *http.Request) {
	type entry struct {
		*Network
		Supported bool `json:"supported"`
	}
	all := r.All()
	out := make([]entry, 0, len(all))
	for _, n := range all {
		out = append(out, entry{Network: n, Supported: len(r.Upstreams(n.CAIPNetworkID)) > 0})
	}
	w.Header().Set("Cache-Control", "public, max-age=60")
	httpx.JSON(w, http.StatusOK, map[string]any{"networks": out})
}
