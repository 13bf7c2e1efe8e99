package indexer

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/latchkit/latch/internal/evm"
	"github.com/latchkit/latch/internal/store/storetest"
)

type wrappedAt common.Address

func (w wrappedAt) IsWrappedNative(a common.Address) bool { return a == common.Address(w) }

func TestOperationFor(t *testing.T) {
	me := common.HexToAddress("0x1111111111111111111111111111111111111111")
	them := common.HexToAddress("0x2222222222222222222222222222222222222222")
	tokA := common.HexToAddress("0xaaaa00000000000000000000000000000000aaaa")
	tokB := common.HexToAddress("0xbbbb00000000000000000000000000000000bbbb")
	zero := common.Address{}
	dead := common.HexToAddress("0x000000000000000000000000000000000000dEaD")
	one := big.NewInt(1)
	erc := func(tok common.Address, from, to common.Address) movement {
		return movement{Kind: KindERC20, Token: &tok, From: from, To: to, Amount: one}
	}
	native := func(from, to common.Address) movement {
		return movement{Kind: KindNative, From: from, To: to, Amount: one}
	}
	tests := []struct {
		name  string
		moves []movement
		want  string
	}{
		{"Send", []movement{erc(tokA, me, them)}, OpSend},
		{"Receive", []movement{native(them, me)}, OpReceive},
		{"Trade", []movement{erc(tokA, me, them), erc(tokB, them, me)}, OpTrade},
		{"TradeForNative", []movement{erc(tokA, me, them), native(them, me)}, OpTrade},
		{"SameAssetBack", []movement{erc(tokA, me, them), erc(tokA, them, me)}, OpSend},
		{"Mint", []movement{erc(tokA, zero, me)}, OpMint},
		{"MintAndReceive", []movement{erc(tokA, zero, me), erc(tokB, them, me)}, OpReceive},
		{"Burn", []movement{erc(tokA, me, zero)}, OpBurn},
		{"BurnDead", []movement{erc(tokA, me, dead)}, OpBurn},
		{"Self", []movement{native(me, me)}, OpSend},
		{"Approve", []movement{{Kind: KindApproval, Token: &tokA, From: me, To: them, Amount: one}}, OpApprove},
		{"ApprovedBySomeoneElse", []movement{{Kind: KindApproval, Token: &tokA, From: them, To: me, Amount: one}}, OpExecute},
		{"Execute", nil, OpExecute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tx := &txRecord{From: me, Value: new(big.Int), Movements: tt.moves}
			if got := operationFor(tx, me); got != tt.want {
				t.Fatalf("operationFor = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestIntent(t *testing.T) {
	weth := common.HexToAddress("0xc0ffee0000000000000000000000000000000000")
	other := common.HexToAddress("0x3333333333333333333333333333333333333333")
	tests := []struct {
		name  string
		to    common.Address
		value int64
		sel   []byte
		want  string
	}{
		{"PlainValue", other, 1, nil, OpSend},
		{"Transfer", other, 0, selTransfer, OpSend},
		{"TransferFrom", other, 0, selTransferFrom, OpSend},
		{"Approve", other, 0, selApprove, OpApprove},
		{"Deposit", weth, 1, selDeposit, OpDeposit},
		{"Withdraw", weth, 0, selWithdraw, OpWithdraw},
		{"WithdrawElsewhere", other, 0, selWithdraw, OpExecute},
		{"Call", other, 0, []byte{1, 2, 3, 4}, OpExecute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			to := tt.to
			tx := &txRecord{To: &to, Value: big.NewInt(tt.value), Selector: tt.sel, Failed: true}
			if got := intent(tx, wrappedAt(weth)); got != tt.want {
				t.Fatalf("intent = %s, want %s", got, tt.want)
			}
		})
	}
}

// decodeBlock reads ERC-721 transfers and leaves malformed logs out.
func TestDecodeBlock_Logs(t *testing.T) {
	me := common.HexToAddress("0x1111111111111111111111111111111111111111")
	nft := common.HexToAddress("0x9999999999999999999999999999999999999999")
	status := hexUint(1)
	b := &evm.BlockWithReceipts{
		Block: evm.Block{Header: evm.Header{Number: 5, Time: 100}, Transactions: []evm.Tx{{From: nft, To: &nft, Index: 0}}},
		Receipts: []evm.Receipt{{Status: &status, Logs: []evm.Log{
			{Address: nft, Topics: []common.Hash{topicTransfer, {}, common.BytesToHash(me.Bytes()), common.BigToHash(big.NewInt(42))}},
			{Address: nft, Topics: []common.Hash{topicTransfer, {}}, Data: make([]byte, 32)},                            // too few topics
			{Address: nft, Topics: []common.Hash{topicApproval, {}, {}}, Data: make([]byte, 31)},                        // short data
			{Address: nft, Topics: []common.Hash{topicDeposit, common.BytesToHash(me.Bytes())}, Data: make([]byte, 32)}, // not a wrapper
		}}},
	}
	rec := decodeBlock(b, wrappedAt{})
	moves := rec.Txs[0].Movements
	if len(moves) != 1 || moves[0].Kind != KindERC721 || moves[0].Amount.Int64() != 42 || moves[0].To != me {
		t.Fatalf("movements = %+v", moves)
	}
	if op := rec.Txs[0].Parties[me]; op != OpMint {
		t.Fatalf("operation for the NFT recipient = %q", op)
	}
}

func TestDecodeString(t *testing.T) {
	abiString := func(s string) []byte {
		out, _ := (stringArgs).Pack(s)
		return out
	}
	mkr := make([]byte, 32)
	copy(mkr, "MKR")
	for _, tt := range []struct {
		in   evm.CallElem
		want string
	}{
		{evm.CallElem{Result: abiString("USD Coin")}, "USD Coin"},
		{evm.CallElem{Result: mkr}, "MKR"},
		{evm.CallElem{Result: abiString("bad\x00name")}, ""},
		{evm.CallElem{Result: []byte{1, 2}}, ""},
		{evm.CallElem{Err: context.Canceled}, ""},
	} {
		if got := decodeString(tt.in); got != tt.want {
			t.Errorf("decodeString = %q, want %q", got, tt.want)
		}
	}
}

func TestDatabaseLock(t *testing.T) {
	if DatabaseLock(storetest.MustOpenSQLite(t)) != nil {
		t.Fatal("SQLite needs no lock")
	}
	db := storetest.MustOpenPostgres(t)
	lock := DatabaseLock(db)
	release, err := lock(context.Background(), 5)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := lock(ctx, 5); err == nil {
		t.Fatal("a second node took a held lock")
	}
	other, err := lock(context.Background(), 6)
	if err != nil {
		t.Fatal(err)
	}
	other()
	release()
	again, err := lock(context.Background(), 5)
	if err != nil {
		t.Fatal(err)
	}
	again()
}

func hexUint(n uint64) hexutil.Uint64 { return hexutil.Uint64(n) }
