package indexer

import (
	"bytes"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/internal/evm"
)

// Event signatures the indexer reads.
var (
	topicTransfer   = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))
	topicApproval   = crypto.Keccak256Hash([]byte("Approval(address,address,uint256)"))
	topicDeposit    = crypto.Keccak256Hash([]byte("Deposit(address,uint256)"))    // WETH9 wrap
	topicWithdrawal = crypto.Keccak256Hash([]byte("Withdrawal(address,uint256)")) // WETH9 unwrap
)

// Function selectors used to name what a failed transaction tried to do.
var (
	selTransfer     = crypto.Keccak256([]byte("transfer(address,uint256)"))[:4]
	selTransferFrom = crypto.Keccak256([]byte("transferFrom(address,address,uint256)"))[:4]
	selApprove      = crypto.Keccak256([]byte("approve(address,uint256)"))[:4]
	selDeposit      = crypto.Keccak256([]byte("deposit()"))[:4]
	selWithdraw     = crypto.Keccak256([]byte("withdraw(uint256)"))[:4]
)

// Kind is what a movement record is.
type Kind int

// Movement kinds; the values are stored.
const (
	KindNative   Kind = 0 // the network's coin
	KindERC20    Kind = 1 // a fungible token
	KindERC721   Kind = 2 // an NFT; Amount is the token id
	KindApproval Kind = 3 // an ERC-20 allowance: From is the owner, To the spender
)

// Operation types (api-shapes §3.2 operationType).
const (
	OpSend     = "send"
	OpReceive  = "receive"
	OpTrade    = "trade"
	OpApprove  = "approve"
	OpExecute  = "execute"
	OpMint     = "mint"
	OpBurn     = "burn"
	OpDeposit  = "deposit"
	OpWithdraw = "withdraw"
)

// movement is one transfer or approval in a transaction.
type movement struct {
	Seq    int // order within the transaction
	Kind   Kind
	Token  *common.Address // nil for native
	From   common.Address
	To     common.Address
	Amount *big.Int
	Price  *float64 // USD per whole unit, when priced at index time
	// wrap marks the WETH side of a wrapped-native Deposit/Withdrawal.
	wrap string // "", OpDeposit or OpWithdraw
}

// txRecord is an indexed transaction with its movements and, per address
// involved, the operation it was for that address.
type txRecord struct {
	Block     uint64
	Index     uint32
	Hash      common.Hash
	Time      uint64
	From      common.Address
	To        *common.Address // the called address, or the created contract
	Nonce     uint64
	Value     *big.Int
	Failed    bool
	Selector  []byte
	Movements []movement
	Parties   map[common.Address]string // address → operation type
}

// blockRecord is one decoded block.
type blockRecord struct {
	evm.Header
	Txs []txRecord
}

// tokenKinds tells decode which contracts are the network's wrapped native
// token (whose Deposit/Withdrawal events move value) and which token contracts
// it saw, with their standard, so metadata can be fetched.
type tokenKinds interface {
	IsWrappedNative(addr common.Address) bool
}

// decodeBlock turns a block and its receipts into records. Native transfers
// are the top-level transaction value, plus the ether a wrapped-native token
// pays out on withdraw (read from its Withdrawal event): ether moved by other
// internal calls is only visible to call tracing, which public upstreams
// rarely offer, so it is not recorded.
func decodeBlock(b *evm.BlockWithReceipts, tokens tokenKinds) blockRecord {
	rec := blockRecord{Header: b.Header}
	for i, tx := range b.Transactions {
		r := b.Receipts[i]
		t := txRecord{
			Block: uint64(b.Number),
			Index: uint32(tx.Index),
			Hash:  tx.Hash,
			Time:  uint64(b.Time),
			From:  tx.From,
			To:    tx.To,
			Nonce: uint64(tx.Nonce),
			Value: new(big.Int),
		}
		if tx.Value != nil {
			t.Value = tx.Value.ToInt()
		}
		if t.To == nil && r.ContractAddress != nil {
			t.To = r.ContractAddress
		}
		// Receipts before Byzantium have no status; those blocks succeeded or
		// reverted silently, and we count them as succeeded.
		t.Failed = r.Status != nil && *r.Status == 0
		if len(tx.Input) >= 4 {
			t.Selector = append([]byte(nil), tx.Input[:4]...)
		}
		if !t.Failed {
			t.Movements = movements(&t, r.Logs, tokens)
		}
		t.Parties = classify(&t, tokens)
		rec.Txs = append(rec.Txs, t)
	}
	return rec
}

// movements lists what a successful transaction moved, in a fixed order
// (the value transfer, then the logs in log order), so re-indexing a block
// yields the same sequence numbers.
func movements(t *txRecord, logs []evm.Log, tokens tokenKinds) []movement {
	var out []movement
	add := func(m movement) {
		m.Seq = len(out)
		out = append(out, m)
	}
	if t.Value.Sign() > 0 && t.To != nil {
		add(movement{Kind: KindNative, From: t.From, To: *t.To, Amount: t.Value})
	}
	for _, l := range logs {
		if len(l.Topics) == 0 {
			continue
		}
		token := l.Address
		switch l.Topics[0] {
		case topicTransfer:
			switch {
			case len(l.Topics) == 3 && len(l.Data) == 32:
				add(movement{Kind: KindERC20, Token: &token, From: topicAddress(l.Topics[1]), To: topicAddress(l.Topics[2]), Amount: new(big.Int).SetBytes(l.Data)})
			case len(l.Topics) == 4 && len(l.Data) == 0:
				add(movement{Kind: KindERC721, Token: &token, From: topicAddress(l.Topics[1]), To: topicAddress(l.Topics[2]), Amount: l.Topics[3].Big()})
			}
		case topicApproval:
			if len(l.Topics) == 3 && len(l.Data) == 32 {
				add(movement{Kind: KindApproval, Token: &token, From: topicAddress(l.Topics[1]), To: topicAddress(l.Topics[2]), Amount: new(big.Int).SetBytes(l.Data)})
			}
		case topicDeposit:
			// WETH9 mints without a Transfer event: the wrapper's coin comes
			// from the token contract itself.
			if len(l.Topics) == 2 && len(l.Data) == 32 && tokens.IsWrappedNative(token) {
				add(movement{Kind: KindERC20, Token: &token, From: token, To: topicAddress(l.Topics[1]), Amount: new(big.Int).SetBytes(l.Data), wrap: OpDeposit})
			}
		case topicWithdrawal:
			// Unwrapping burns the token and pays the same amount of ether to
			// the caller in an internal call.
			if len(l.Topics) == 2 && len(l.Data) == 32 && tokens.IsWrappedNative(token) {
				src := topicAddress(l.Topics[1])
				amount := new(big.Int).SetBytes(l.Data)
				add(movement{Kind: KindERC20, Token: &token, From: src, To: token, Amount: amount, wrap: OpWithdraw})
				add(movement{Kind: KindNative, From: token, To: src, Amount: new(big.Int).Set(amount), wrap: OpWithdraw})
			}
		}
	}
	return out
}

func topicAddress(h common.Hash) common.Address { return common.BytesToAddress(h[12:]) }

// classify names the transaction's operation for each address it involves:
// the sender always, and every sender or recipient of a movement and every
// owner granting an approval (the zero address never: it stands for mint
// and burn).
func classify(t *txRecord, tokens tokenKinds) map[common.Address]string {
	parties := map[common.Address]string{}
	if t.Failed {
		// Nothing moved; only the sender paid for the attempt.
		parties[t.From] = intent(t, tokens)
		return parties
	}
	involved := []common.Address{t.From}
	for _, m := range t.Movements {
		involved = append(involved, m.From)
		if m.Kind != KindApproval {
			involved = append(involved, m.To)
		}
	}
	for _, a := range involved {
		if a == (common.Address{}) {
			continue
		}
		if _, done := parties[a]; !done {
			parties[a] = operationFor(t, a)
		}
	}
	return parties
}

// intent is the operation a failed transaction tried, from its call data.
func intent(t *txRecord, tokens tokenKinds) string {
	switch {
	case len(t.Selector) == 0 && t.Value.Sign() > 0:
		return OpSend
	case bytes.Equal(t.Selector, selTransfer), bytes.Equal(t.Selector, selTransferFrom):
		return OpSend
	case bytes.Equal(t.Selector, selApprove):
		return OpApprove
	case t.To != nil && tokens.IsWrappedNative(*t.To) && bytes.Equal(t.Selector, selDeposit):
		return OpDeposit
	case t.To != nil && tokens.IsWrappedNative(*t.To) && bytes.Equal(t.Selector, selWithdraw):
		return OpWithdraw
	}
	return OpExecute
}

// burnAddresses receive tokens that are gone for good.
var burnAddresses = map[common.Address]bool{
	{}: true,
	common.HexToAddress("0x000000000000000000000000000000000000dEaD"): true,
}

// operationFor classifies a successful transaction from address a's side.
func operationFor(t *txRecord, a common.Address) string {
	var in, out, self, approvals int
	mintOnly, burnOnly := true, true
	assetsIn, assetsOut := map[string]bool{}, map[string]bool{}
	for _, m := range t.Movements {
		if m.Kind == KindApproval {
			if m.From == a {
				approvals++
			}
			continue
		}
		if m.wrap != "" && (m.From == a || m.To == a) {
			return m.wrap
		}
		switch {
		case m.From == a && m.To == a:
			self++
		case m.From == a:
			out++
			assetsOut[assetKey(m)] = true
			burnOnly = burnOnly && burnAddresses[m.To]
		case m.To == a:
			in++
			assetsIn[assetKey(m)] = true
			mintOnly = mintOnly && m.From == (common.Address{})
		}
	}
	switch {
	case in > 0 && out > 0:
		for k := range assetsIn {
			if !assetsOut[k] {
				return OpTrade
			}
		}
		return OpSend // the same asset out and back: net, a send
	case in > 0:
		if mintOnly {
			return OpMint
		}
		return OpReceive
	case out > 0:
		if burnOnly {
			return OpBurn
		}
		return OpSend
	case self > 0:
		return OpSend
	case approvals > 0:
		return OpApprove
	}
	return OpExecute
}

func assetKey(m movement) string {
	if m.Token == nil {
		return "native"
	}
	return m.Token.Hex()
}
