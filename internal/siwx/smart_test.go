package siwx

import (
	"context"
	"crypto/ecdsa"
	"io"
	"log/slog"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/apperr"
	"github.com/latchkit/latch/internal/devnet"
	"github.com/latchkit/latch/internal/evm"
	"github.com/latchkit/latch/internal/poll"
	"github.com/latchkit/latch/pkg/siwx"
)

// chainEnv is a dev chain with the smart-wallet factory deployed.
type chainEnv struct {
	t       testing.TB
	chainID string
	eth     *ethclient.Client
	client  *evm.Client
	factory common.Address
	abi     abi.ABI
}

const smartChainID = 42461

func startChain(t testing.TB) *chainEnv {
	t.Helper()
	d, err := devnet.Start(context.Background(), devnet.Config{ChainIDs: []uint64{smartChainID}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	c := d.Chains()[0]
	eth, err := ethclient.Dial(c.RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eth.Close)
	client, err := evm.NewClient([]string{c.RPCURL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	art := contracts.MustLoad("DevSmartWalletFactory")
	e := &chainEnv{t: t, chainID: c.CAIPNetworkID, eth: eth, client: client, abi: art.ABI}
	rcpt := e.send(nil, art.Bytecode)
	e.factory = rcpt.ContractAddress
	return e
}

// send sends a transaction from the first dev account and waits for its receipt.
func (e *chainEnv) send(to *common.Address, data []byte) *types.Receipt {
	e.t.Helper()
	ctx := context.Background()
	from := devnet.TestAccounts()[0]
	nonce, err := e.eth.PendingNonceAt(ctx, from.Address)
	if err != nil {
		e.t.Fatal(err)
	}
	tip := big.NewInt(1e9)
	head, err := e.eth.HeaderByNumber(ctx, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	tx := types.NewTx(&types.DynamicFeeTx{ChainID: big.NewInt(smartChainID), Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: 3_000_000, To: to, Data: data})
	signed, err := types.SignTx(tx, types.LatestSignerForChainID(big.NewInt(smartChainID)), from.Key)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.eth.SendTransaction(ctx, signed); err != nil {
		e.t.Fatal(err)
	}
	var rcpt *types.Receipt
	poll.For(e.t, 30*time.Second, func() bool {
		rcpt, _ = e.eth.TransactionReceipt(ctx, signed.Hash())
		return rcpt != nil
	})
	if rcpt.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("transaction %s reverted", signed.Hash())
	}
	return rcpt
}

// walletAddress is the CREATE2 address of owner's wallet with salt.
func (e *chainEnv) walletAddress(owner common.Address, salt [32]byte) common.Address {
	e.t.Helper()
	data, _ := e.abi.Pack("walletAddress", owner, salt)
	out, err := EVMCaller{Client: e.client}.EthCall(context.Background(), &e.factory, data)
	if err != nil {
		e.t.Fatal(err)
	}
	return common.BytesToAddress(out)
}

func (e *chainEnv) code(addr common.Address) []byte {
	e.t.Helper()
	code, err := e.eth.CodeAt(context.Background(), addr, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return code
}

// wrap6492 wraps an owner's signature for an undeployed wallet (ERC-6492):
// abi.encode(factory, factoryCalldata, signature) ++ magic suffix.
func (e *chainEnv) wrap6492(owner common.Address, salt [32]byte, sig []byte) string {
	e.t.Helper()
	calldata, err := e.abi.Pack("deploy", owner, salt)
	if err != nil {
		e.t.Fatal(err)
	}
	addrT, _ := abi.NewType("address", "", nil)
	bytesT, _ := abi.NewType("bytes", "", nil)
	enc, err := abi.Arguments{{Type: addrT}, {Type: bytesT}, {Type: bytesT}}.Pack(e.factory, calldata, sig)
	if err != nil {
		e.t.Fatal(err)
	}
	return hexutil.Encode(append(enc, common.FromHex("0x6492649264926492649264926492649264926492649264926492649264926492")...))
}

func TestService_SmartAccounts(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a dev chain")
	}
	ch := startChain(t)
	chains := func(id string) (siwx.EthCaller, error) {
		if id != ch.chainID {
			return nil, errUnknownTestChain
		}
		return EVMCaller{Client: ch.client}, nil
	}
	e := newEnv(t, nil, nil, chains, &clock{t: time.Now().UTC().Truncate(time.Second)})
	ctx := context.Background()
	owner, _ := crypto.GenerateKey()
	ownerAddr := crypto.PubkeyToAddress(owner.PublicKey)
	stranger, _ := crypto.GenerateKey()

	authenticate := func(wallet common.Address, sign func(msg string) string) (*Session, error) {
		g := e.nonce(e.p, "")
		msg := e.message(wallet.Hex(), ch.chainID, g.Nonce).String()
		s, _, err := e.svc.Authenticate(ctx, e.p, g.Token, AuthenticateRequest{Message: msg, Signature: sign(msg)})
		return s, err
	}
	byKey := func(k *ecdsa.PrivateKey) func(string) string {
		return func(msg string) string { return signEOA(k, msg) }
	}

	t.Run("ERC1271", func(t *testing.T) {
		salt := [32]byte{1}
		data, _ := ch.abi.Pack("deploy", ownerAddr, salt)
		ch.send(&ch.factory, data)
		wallet := ch.walletAddress(ownerAddr, salt)
		if len(ch.code(wallet)) == 0 {
			t.Fatal("wallet not deployed")
		}
		s, err := authenticate(wallet, byKey(owner))
		if err != nil || s.Kind != siwx.KindEIP1271 || s.Address != wallet.Hex() {
			t.Fatalf("session %+v, %v", s, err)
		}
		_, err = authenticate(wallet, byKey(stranger))
		wantErr(t, err, apperr.Unauthorized, "signature", "its contract refused it")
	})
	t.Run("ERC6492", func(t *testing.T) {
		salt := [32]byte{2}
		wallet := ch.walletAddress(ownerAddr, salt)
		if len(ch.code(wallet)) != 0 {
			t.Fatal("wallet already deployed")
		}
		s, err := authenticate(wallet, func(msg string) string { return ch.wrap6492(ownerAddr, salt, personalSign(owner, msg)) })
		if err != nil || s.Kind != siwx.KindEIP6492 {
			t.Fatalf("session %+v, %v", s, err)
		}
		// Verified by eth_call: nothing was deployed.
		if len(ch.code(wallet)) != 0 {
			t.Fatal("verification deployed the wallet")
		}
		_, err = authenticate(wallet, func(msg string) string { return ch.wrap6492(ownerAddr, salt, personalSign(stranger, msg)) })
		wantErr(t, err, apperr.Unauthorized, "signature", "Signature is not "+wallet.Hex()+"'s")
	})
	t.Run("ErrUndeployedWithoutWrap", func(t *testing.T) {
		wallet := ch.walletAddress(ownerAddr, [32]byte{3})
		_, err := authenticate(wallet, byKey(owner))
		wantErr(t, err, apperr.Unauthorized, "signature", "Signature is not "+wallet.Hex()+"'s")
	})
	t.Run("EOAOnChain", func(t *testing.T) {
		s, err := authenticate(ownerAddr, byKey(owner))
		if err != nil || s.Kind != siwx.KindEIP191 {
			t.Fatalf("session %+v, %v", s, err)
		}
	})
}

var errUnknownTestChain = apperr.Errorf(apperr.NotFound, "unknown chain")
