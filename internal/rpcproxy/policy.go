package rpcproxy

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// methodKind says how the proxy treats a JSON-RPC method.
type methodKind int

const (
	// kindRefused methods are answered with errMethodNotAllowed and never forwarded.
	kindRefused methodKind = iota
	// kindRead methods have no side effects: identical concurrent calls are
	// coalesced and some answers are cached (see cacheTTL).
	kindRead
	// kindSend methods submit a signed transaction. They are never cached or
	// coalesced and never sent twice to the same upstream.
	kindSend
	// kindStateful methods are forwarded as they are but never cached or
	// coalesced: filters hand out changes since the last poll, and on
	// namespaces other than eip155 the proxy does not know the methods.
	kindStateful
)

// refusedPrefixes are node namespaces that administer the node, hold keys or
// are the consensus-client API; none of them belongs on a public proxy.
var refusedPrefixes = []string{"admin_", "debug_", "personal_", "miner_", "txpool_", "engine_", "clique_", "les_", "trace_", "parity_", "wallet_"}

// refusedMethods need keys the proxy does not hold, need a websocket, or expose
// the node's own accounts.
var refusedMethods = map[string]bool{
	"eth_sendTransaction":        true,
	"eth_sign":                   true,
	"eth_signTransaction":        true,
	"eth_signTypedData":          true,
	"eth_signTypedData_v3":       true,
	"eth_signTypedData_v4":       true,
	"eth_accounts":               true,
	"eth_requestAccounts":        true,
	"eth_subscribe":              true,
	"eth_unsubscribe":            true,
	"eth_submitWork":             true,
	"eth_submitHashrate":         true,
	"eth_getWork":                true,
	"eth_coinbase":               true,
	"eth_mining":                 true,
	"eth_hashrate":               true,
	"eth_sendBundle":             true,
	"eth_sendPrivateTransaction": true,
}

// statefulMethods are the eip155 filter methods: each poll returns what
// changed since the previous one, so answers cannot be shared.
var statefulMethods = map[string]bool{
	"eth_newFilter":                   true,
	"eth_newBlockFilter":              true,
	"eth_newPendingTransactionFilter": true,
	"eth_getFilterChanges":            true,
	"eth_getFilterLogs":               true,
	"eth_uninstallFilter":             true,
}

// classify returns how method is treated on a network of the given CAIP-2 namespace.
func classify(namespace, method string) methodKind {
	for _, p := range refusedPrefixes {
		if strings.HasPrefix(method, p) {
			return kindRefused
		}
	}
	if namespace != "eip155" {
		// Solana and Bitcoin methods carry no namespace prefix; the proxy
		// cannot tell reads from writes, so it forwards them uncached, and
		// treats the one well-known submit method like a transaction.
		if method == "sendTransaction" {
			return kindSend
		}
		return kindStateful
	}
	switch {
	case refusedMethods[method]:
		return kindRefused
	case method == "eth_sendRawTransaction" || method == "eth_sendRawTransactionConditional":
		return kindSend
	case statefulMethods[method]:
		return kindStateful
	case strings.HasPrefix(method, "eth_send"):
		return kindRefused
	case strings.HasPrefix(method, "eth_"), strings.HasPrefix(method, "net_"), strings.HasPrefix(method, "web3_"):
		return kindRead
	}
	return kindRefused
}

// noCache is returned by cacheTTL for answers that must not be stored.
const noCache time.Duration = -1

// blockParamIndex is the position of the block tag parameter of the state
// reads whose answer depends on one block only.
var blockParamIndex = map[string]int{
	"eth_getBalance":          1,
	"eth_getCode":             1,
	"eth_getTransactionCount": 1,
	"eth_call":                1,
	"eth_estimateGas":         1,
	"eth_getStorageAt":        2,
	"eth_getProof":            2,
}

// byNumberMethods take a block number or tag as their first parameter.
var byNumberMethods = map[string]bool{
	"eth_getBlockByNumber":                    true,
	"eth_getBlockReceipts":                    true,
	"eth_getBlockTransactionCountByNumber":    true,
	"eth_getTransactionByBlockNumberAndIndex": true,
	"eth_getUncleCountByBlockNumber":          true,
}

// byHashMethods identify a block or transaction by hash; their answer is
// null until it is mined and then fixed unless a reorg removes it.
var byHashMethods = map[string]bool{
	"eth_getTransactionReceipt":             true,
	"eth_getTransactionByHash":              true,
	"eth_getBlockByHash":                    true,
	"eth_getTransactionByBlockHashAndIndex": true,
	"eth_getBlockTransactionCountByHash":    true,
}

// nearHeadMethods change with every block.
var nearHeadMethods = map[string]bool{
	"eth_blockNumber":          true,
	"eth_gasPrice":             true,
	"eth_maxPriorityFeePerGas": true,
	"eth_feeHistory":           true,
	"eth_blobBaseFee":          true,
	"eth_syncing":              true,
	"net_listening":            true,
	"net_peerCount":            true,
	"web3_clientVersion":       true,
}

// cacheTTL decides how long a successful answer of a read may be cached:
// noCache, 0 for ever, or a duration. safeHead is the latest known block
// minus the confirmation depth (0 when unknown): answers pinned to a block at
// or below it are treated as immutable.
func (p *Proxy) cacheTTL(method string, params, result json.RawMessage, safeHead uint64) time.Duration {
	immutable := func(block uint64, ok bool) bool { return ok && safeHead > 0 && block <= safeHead }
	switch {
	case method == "eth_chainId" || method == "net_version":
		return 0
	case nearHeadMethods[method]:
		return p.cfg.NearHeadTTL
	case byHashMethods[method]:
		if isNull(result) {
			return noCache // not mined yet: the next poll must reach the node
		}
		var r struct {
			BlockNumber *string `json:"blockNumber"`
			Number      *string `json:"number"`
		}
		_ = json.Unmarshal(result, &r)
		n := r.BlockNumber
		if n == nil {
			n = r.Number
		}
		if n != nil {
			if b, ok := parseQuantity(*n); immutable(b, ok) {
				return p.cfg.ImmutableTTL
			}
		}
		return p.cfg.NearHeadTTL
	case byNumberMethods[method]:
		return p.blockTTL(param(params, 0), immutable)
	case method == "eth_getLogs":
		var f struct {
			FromBlock json.RawMessage `json:"fromBlock"`
			ToBlock   json.RawMessage `json:"toBlock"`
			BlockHash json.RawMessage `json:"blockHash"`
		}
		if err := json.Unmarshal(param(params, 0), &f); err != nil {
			return noCache
		}
		if f.BlockHash != nil {
			return p.cfg.NearHeadTTL
		}
		from, fromKind := blockTag(f.FromBlock)
		to, toKind := blockTag(f.ToBlock)
		if fromKind == tagPending || toKind == tagPending {
			return noCache
		}
		if fromKind == tagNumber && toKind == tagNumber && immutable(max(from, to), true) {
			return p.cfg.ImmutableTTL
		}
		return p.cfg.NearHeadTTL
	}
	if i, ok := blockParamIndex[method]; ok {
		return p.blockTTL(param(params, i), immutable)
	}
	return noCache
}

func (p *Proxy) blockTTL(raw json.RawMessage, immutable func(uint64, bool) bool) time.Duration {
	n, kind := blockTag(raw)
	switch kind {
	case tagPending:
		// A pending nonce or balance must be fresh: a wallet sending two
		// transactions in a row would otherwise reuse a nonce.
		return noCache
	case tagNumber:
		if immutable(n, true) {
			return p.cfg.ImmutableTTL
		}
	}
	return p.cfg.NearHeadTTL
}

type tagKind int

const (
	tagLatest  tagKind = iota // latest, safe, finalized, absent, or a block hash object
	tagPending                // pending
	tagNumber                 // an explicit number, or earliest (0)
)

func blockTag(raw json.RawMessage) (uint64, tagKind) {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return 0, tagLatest
	}
	switch s {
	case "pending":
		return 0, tagPending
	case "earliest":
		return 0, tagNumber
	}
	if n, ok := parseQuantity(s); ok {
		return n, tagNumber
	}
	return 0, tagLatest
}

// parseQuantity parses a hex quantity "0x1a".
func parseQuantity(s string) (uint64, bool) {
	if len(s) < 3 || (s[:2] != "0x" && s[:2] != "0X") {
		return 0, false
	}
	n, err := strconv.ParseUint(s[2:], 16, 64)
	return n, err == nil
}

// param returns the i-th element of a positional params array, or nil.
func param(params json.RawMessage, i int) json.RawMessage {
	var list []json.RawMessage
	if json.Unmarshal(params, &list) != nil || i >= len(list) {
		return nil
	}
	return list[i]
}

func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}
