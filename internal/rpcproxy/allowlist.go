package rpcproxy

// The proxy forwards only the methods listed here, one allowlist per CAIP-2
// namespace. Anything else — node administration, methods that use the
// node's own keys or accounts, mempool dumps, methods whose cost a public
// client should not choose — is answered with a -32601 error without
// reaching an upstream, entry by entry in a batch. A namespace without a
// list refuses every method.
//
// -32601 (JSON-RPC 2.0's "method not found") rather than EIP-1474's -32004
// "method not supported": it is what every namespace's own nodes answer for a
// method they do not serve (geth, Solana's validator and Bitcoin Core alike),
// so Solana and Bitcoin clients understand it too, viem maps it to
// MethodNotFoundRpcError and does not retry it, and the proxy answered it
// before the allowlist as well.

// eip155Methods are what viem, wagmi and AppKit call on an Ethereum-like
// chain: state and chain reads, fee estimation, logs, receipts, the filter
// methods viem polls over HTTP (stateful: pinned to the node that made the
// filter), and the submission of a transaction the client signed itself.
// Not listed and so refused: eth_sendTransaction, eth_sign* and eth_accounts
// (the node's own keys), eth_subscribe (needs a websocket), eth_resend,
// eth_fillTransaction and eth_pendingTransactions (the node's accounts and
// pool), eth_getWork and the mining methods, and every admin_, debug_,
// trace_, personal_, miner_, txpool_, engine_ and wallet_ method.
// ERC-4337 bundler and paymaster methods (eth_sendUserOperation, pm_…) are
// not listed: on networks with a bundler, Config.Local answers them first.
var eip155Methods = map[string]methodKind{
	"eth_chainId":                             kindRead,
	"eth_blockNumber":                         kindRead,
	"eth_call":                                kindRead,
	"eth_estimateGas":                         kindRead,
	"eth_createAccessList":                    kindRead,
	"eth_simulateV1":                          kindRead,
	"eth_getBalance":                          kindRead,
	"eth_getCode":                             kindRead,
	"eth_getStorageAt":                        kindRead,
	"eth_getProof":                            kindRead,
	"eth_getTransactionCount":                 kindRead,
	"eth_getTransactionByHash":                kindRead,
	"eth_getTransactionReceipt":               kindRead,
	"eth_getTransactionByBlockHashAndIndex":   kindRead,
	"eth_getTransactionByBlockNumberAndIndex": kindRead,
	"eth_getBlockByNumber":                    kindRead,
	"eth_getBlockByHash":                      kindRead,
	"eth_getBlockReceipts":                    kindRead,
	"eth_getBlockTransactionCountByHash":      kindRead,
	"eth_getBlockTransactionCountByNumber":    kindRead,
	"eth_getUncleCountByBlockHash":            kindRead,
	"eth_getUncleCountByBlockNumber":          kindRead,
	"eth_getLogs":                             kindRead,
	"eth_gasPrice":                            kindRead,
	"eth_maxPriorityFeePerGas":                kindRead,
	"eth_feeHistory":                          kindRead,
	"eth_blobBaseFee":                         kindRead,
	"eth_syncing":                             kindRead,
	"eth_protocolVersion":                     kindRead,
	"net_version":                             kindRead,
	"net_listening":                           kindRead,
	"net_peerCount":                           kindRead,
	"web3_clientVersion":                      kindRead,
	"web3_sha3":                               kindRead,

	"eth_newFilter":                   kindStateful,
	"eth_newBlockFilter":              kindStateful,
	"eth_newPendingTransactionFilter": kindStateful,
	"eth_getFilterChanges":            kindStateful,
	"eth_getFilterLogs":               kindStateful,
	"eth_uninstallFilter":             kindStateful,

	"eth_sendRawTransaction":            kindSend,
	"eth_sendRawTransactionConditional": kindSend,
}

// solanaMethods are the reads of Solana's JSON-RPC API a wallet or dapp
// uses, plus simulateTransaction and sendTransaction of a transaction the
// client signed. Not listed and so refused: getProgramAccounts and
// getLargestAccounts (scans of the whole ledger that public nodes disable or
// bill heavily; token accounts are read with getTokenAccountsByOwner) and
// the deprecated methods replaced by those below. requestAirdrop mints test
// tokens from the node's faucet: it is allowed on dev networks only.
var solanaMethods = map[string]methodKind{
	"getAccountInfo":                    kindRead,
	"getBalance":                        kindRead,
	"getBlock":                          kindRead,
	"getBlockCommitment":                kindRead,
	"getBlockHeight":                    kindRead,
	"getBlockProduction":                kindRead,
	"getBlockTime":                      kindRead,
	"getBlocks":                         kindRead,
	"getBlocksWithLimit":                kindRead,
	"getEpochInfo":                      kindRead,
	"getEpochSchedule":                  kindRead,
	"getFeeForMessage":                  kindRead,
	"getFirstAvailableBlock":            kindRead,
	"getGenesisHash":                    kindRead,
	"getHealth":                         kindRead,
	"getHighestSnapshotSlot":            kindRead,
	"getInflationGovernor":              kindRead,
	"getInflationRate":                  kindRead,
	"getInflationReward":                kindRead,
	"getLatestBlockhash":                kindRead,
	"getMinimumBalanceForRentExemption": kindRead,
	"getMultipleAccounts":               kindRead,
	"getRecentPerformanceSamples":       kindRead,
	"getRecentPrioritizationFees":       kindRead,
	"getSignatureStatuses":              kindRead,
	"getSignaturesForAddress":           kindRead,
	"getSlot":                           kindRead,
	"getSlotLeader":                     kindRead,
	"getStakeMinimumDelegation":         kindRead,
	"getSupply":                         kindRead,
	"getTokenAccountBalance":            kindRead,
	"getTokenAccountsByDelegate":        kindRead,
	"getTokenAccountsByOwner":           kindRead,
	"getTokenLargestAccounts":           kindRead,
	"getTokenSupply":                    kindRead,
	"getTransaction":                    kindRead,
	"getTransactionCount":               kindRead,
	"getVersion":                        kindRead,
	"getVoteAccounts":                   kindRead,
	"isBlockhashValid":                  kindRead,
	"minimumLedgerSlot":                 kindRead,
	"simulateTransaction":               kindRead,

	"sendTransaction": kindSend,
}

// bip122Methods are a read-only subset of Bitcoin Core's RPC (chain, block,
// transaction and fee reads, and checks of a raw transaction or address)
// plus sendrawtransaction of a transaction the client signed. Never listed:
// the wallet RPCs (sendtoaddress, dumpprivkey, importprivkey,
// walletpassphrase, getbalance, listunspent…), the node's control and
// network RPCs (stop, addnode, setban, getpeerinfo, getnetworkinfo, which
// shows the node's own addresses), mining RPCs, and scans whose cost the
// caller would choose (gettxoutsetinfo, scantxoutset).
var bip122Methods = map[string]methodKind{
	"getbestblockhash":     kindRead,
	"getblock":             kindRead,
	"getblockchaininfo":    kindRead,
	"getblockcount":        kindRead,
	"getblockhash":         kindRead,
	"getblockheader":       kindRead,
	"getblockstats":        kindRead,
	"getchaintips":         kindRead,
	"getdifficulty":        kindRead,
	"getmempoolentry":      kindRead,
	"getmempoolinfo":       kindRead,
	"getrawtransaction":    kindRead,
	"gettxout":             kindRead,
	"estimatesmartfee":     kindRead,
	"decoderawtransaction": kindRead,
	"decodescript":         kindRead,
	"validateaddress":      kindRead,
	"testmempoolaccept":    kindRead,
	"sendrawtransaction":   kindSend,
}

// allowlists maps a CAIP-2 namespace to its allowlist. Every namespace of
// data/networks.json has one (a test checks it).
var allowlists = map[string]map[string]methodKind{
	"eip155": eip155Methods,
	"solana": solanaMethods,
	"bip122": bip122Methods,
}

// devOnlyMethods are allowed only on a dev network (network.Network.Dev),
// keyed by namespace.
var devOnlyMethods = map[string]map[string]methodKind{
	"solana": {"requestAirdrop": kindSend},
}

// classify returns how method is treated on a network of the given CAIP-2
// namespace; dev says whether the network is a dev network.
func classify(namespace, method string, dev bool) methodKind {
	if k, ok := allowlists[namespace][method]; ok {
		return k
	}
	if dev {
		if k, ok := devOnlyMethods[namespace][method]; ok {
			return k
		}
	}
	return kindRefused
}
