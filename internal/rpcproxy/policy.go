package rpcproxy

import (
	"encoding/json"
	"strconv"
	"time"
)

// methodKind says how the proxy treats a JSON-RPC method.
type methodKind int

const (
	// kindRefused methods are not on their namespace's allowlist (allowlist.go):
	// they are answered with a -32601 error and never forwarded.
	kindRefused methodKind = iota
	// kindRead methods have no side effects: identical concurrent calls are
	// coalesced and some answers are cached (see cacheTTL).
	kindRead
	// kindSend methods submit a signed transaction. They are never cached or
	// coalesced and never sent twice to the same upstream.
	kindSend
	// kindStateful methods are forwarded as they are but never cached or
	// coalesced, and go to the node that made their filter: the eip155
	// filter methods hand out changes since the last poll.
	kindStateful
)

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
