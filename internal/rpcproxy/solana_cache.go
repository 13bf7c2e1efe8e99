package rpcproxy

import (
	"encoding/json"
	"strings"
	"time"
)

// Caching of Solana answers, by commitment. A Solana read names the
// commitment of the bank it reads (its config object's "commitment";
// absent means finalized, the RPC's default):
//
//   - processed: the newest bank, which a fork may still drop and the next
//     slot replaces: never cached.
//   - confirmed: voted on by a supermajority, replaced every slot (~400 ms):
//     cached NearHeadTTL.
//   - finalized: rooted; it only moves forward as roots advance: cached
//     SolanaFinalizedTTL (longer).
//
// Answers about something finished at finalized commitment never change:
// a found transaction (getTransaction), a block and its time (getBlock,
// getBlockTime) are cached ImmutableTTL. Not found (null) is never cached,
// since the next poll may find it. Signature statuses (wallets poll them to
// see a transaction confirm) and simulations are never cached; nor are
// answers to a request with minContextSlot, which asks for a bank at least
// that recent.

// DefaultSolanaFinalizedTTL is Config.SolanaFinalizedTTL's default.
const DefaultSolanaFinalizedTTL = 2 * time.Second

// solanaStaticTTL: answers about the cluster's configuration, which changes
// with a software upgrade at most.
const solanaStaticTTL = time.Minute

// solanaByCommitment are the reads whose answer follows the bank of their
// commitment.
var solanaByCommitment = map[string]bool{
	"getAccountInfo": true, "getBalance": true, "getBlockHeight": true, "getBlockCommitment": true,
	"getBlockProduction": true, "getBlocks": true, "getBlocksWithLimit": true, "getEpochInfo": true,
	"getFeeForMessage": true, "getFirstAvailableBlock": true, "getHealth": true, "getHighestSnapshotSlot": true,
	"getInflationRate": true, "getInflationReward": true, "getLatestBlockhash": true, "getMultipleAccounts": true,
	"getRecentPerformanceSamples": true, "getRecentPrioritizationFees": true, "getSignaturesForAddress": true,
	"getSlot": true, "getSlotLeader": true, "getSupply": true, "getTokenAccountBalance": true,
	"getTokenAccountsByDelegate": true, "getTokenAccountsByOwner": true, "getTokenLargestAccounts": true,
	"getTokenSupply": true, "getTransactionCount": true, "getVoteAccounts": true, "isBlockhashValid": true,
	"minimumLedgerSlot": true,
}

// solanaFinished: answers that never change once found at finalized commitment.
var solanaFinished = map[string]bool{"getTransaction": true, "getBlock": true, "getBlockTime": true}

// solanaStatic: the cluster's configuration.
var solanaStatic = map[string]bool{
	"getVersion": true, "getEpochSchedule": true, "getInflationGovernor": true,
	"getMinimumBalanceForRentExemption": true, "getStakeMinimumDelegation": true,
}

// answerTTL is how long a successful read answer on network may be cached
// (noCache, 0 for ever, or a duration), by the network's namespace.
func (p *Proxy) answerTTL(network, method string, params, result json.RawMessage, safeHead uint64) time.Duration {
	if strings.HasPrefix(network, "solana:") {
		return p.solanaCacheTTL(method, params, result)
	}
	return p.cacheTTL(method, params, result, safeHead)
}

// solanaCacheTTL decides the cache lifetime of a Solana answer (see above).
func (p *Proxy) solanaCacheTTL(method string, params, result json.RawMessage) time.Duration {
	if method == "getGenesisHash" {
		return 0
	}
	if solanaStatic[method] {
		return solanaStaticTTL
	}
	finished, byCommitment := solanaFinished[method], solanaByCommitment[method]
	if !finished && !byCommitment {
		return noCache
	}
	commitment, minSlot := solanaConfig(params)
	if minSlot {
		return noCache
	}
	switch commitment {
	case "processed", "recent", "single", "singleGossip":
		return noCache
	case "confirmed":
		if finished && isNull(result) {
			return noCache
		}
		return p.cfg.NearHeadTTL
	}
	// finalized (and its deprecated names root and max), or none: the default.
	if finished {
		if isNull(result) {
			return noCache
		}
		return p.cfg.ImmutableTTL
	}
	return p.cfg.SolanaFinalizedTTL
}

// solanaConfig reads the commitment of a request's config object (the
// last object among its params) and whether it sets minContextSlot.
func solanaConfig(params json.RawMessage) (commitment string, minContextSlot bool) {
	var list []json.RawMessage
	if json.Unmarshal(params, &list) != nil {
		return "", false
	}
	for i := len(list) - 1; i >= 0; i-- {
		if len(list[i]) == 0 || list[i][0] != '{' {
			continue
		}
		var cfg struct {
			Commitment     string          `json:"commitment"`
			MinContextSlot json.RawMessage `json:"minContextSlot"`
		}
		if json.Unmarshal(list[i], &cfg) != nil {
			continue
		}
		return cfg.Commitment, cfg.MinContextSlot != nil && !isNull(cfg.MinContextSlot)
	}
	return "", false
}
