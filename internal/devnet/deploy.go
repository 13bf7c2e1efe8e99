package devnet

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/latchkit/latch/contracts"
)

// deployer deploys every dev contract and pays for the faucet. Its key comes
// from a fixed label rather than the mnemonic so that users' own transactions
// from the test accounts never race the faucet for nonces, and so that the
// contract addresses (CREATE from this account at nonces 0, 1, 2, …) are the
// same on every start and on every chain.
var deployer = func() Account {
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("latch devnet deployer v1")))
	if err != nil {
		panic(err) // a fixed 32-byte hash below the curve order
	}
	return Account{Address: crypto.PubkeyToAddress(key.PublicKey), Key: key}
}()

// devToken is a token the devnet deploys, with how the faucet produces it.
type devToken struct {
	Token
	wrapped bool // WETH: the faucet deposits ether and transfers, it cannot mint
}

// Deployment plan. The order is the deployer's nonce order; append new
// contracts at the end so existing addresses never move.
var (
	devTokens = []devToken{
		{Token: Token{Symbol: "USDC", Name: "USD Coin", Decimals: 6, Address: crypto.CreateAddress(deployer.Address, 0)}},
		{Token: Token{Symbol: "DAI", Name: "Dai Stablecoin", Decimals: 18, Address: crypto.CreateAddress(deployer.Address, 1)}},
		{Token: Token{Symbol: "WETH", Name: "Wrapped Ether", Decimals: 18, Address: crypto.CreateAddress(deployer.Address, 2)}, wrapped: true},
	}
	multicall3Address = crypto.CreateAddress(deployer.Address, 3)
	// USD price feeds (DevPriceFeed, Chainlink AggregatorV3-compatible), one
	// per priced asset; WETH is priced by the ETH feed, as on public networks.
	devFeeds = []devFeed{
		{asset: nativeSymbol, description: "ETH / USD", initial: 3000, address: crypto.CreateAddress(deployer.Address, 4)},
		{asset: "USDC", description: "USDC / USD", initial: 1, address: crypto.CreateAddress(deployer.Address, 5)},
		{asset: "DAI", description: "DAI / USD", initial: 1, address: crypto.CreateAddress(deployer.Address, 6)},
	}
	// ensRegistryAddress is the dev ENS registry (DevENSRegistry): the names
	// zone is pointed at latchd's offchain resolver in it (SetNamesGateway).
	ensRegistryAddress = crypto.CreateAddress(deployer.Address, 7)
	// ensUniversalResolverAddress is the DevUniversalResolver over it, what
	// viem's ENS actions call (a chain's contracts.ensUniversalResolver).
	ensUniversalResolverAddress = crypto.CreateAddress(deployer.Address, 8)
)

// devFeed is a price feed the devnet deploys.
type devFeed struct {
	asset       string // nativeSymbol or a dev token's symbol
	description string // the feed's description(), e.g. "ETH / USD"
	initial     int64  // the starting price in whole dollars
	address     common.Address
}

// initialMint is what every test account holds of each mintable token at start.
const initialMint = 1_000_000

// Fixed gas limits. The start-up batch is sent before any of it is mined, so
// calls to the new contracts cannot be estimated; these leave ample margin
// (unused gas is refunded) and the whole batch fits one block.
const (
	deployGas = 3_000_000
	tokenGas  = 100_000 // mint, deposit or transfer of one of our tokens
)

// priorityFee is the tip on the deployer's transactions.
var priorityFee = big.NewInt(params.GWei)

var (
	devTokenArtifact          = contracts.MustLoad("DevToken")
	wethArtifact              = contracts.MustLoad("WETH")
	multicall3Artifact        = contracts.MustLoad("Multicall3")
	priceFeedArtifact         = contracts.MustLoad("DevPriceFeed")
	ensRegistryArtifact       = contracts.MustLoad("DevENSRegistry")
	universalResolverArtifact = contracts.MustLoad("DevUniversalResolver")
)

// deploy sends every deployment and initial mint at once, then waits for them
// all: the beacon seals whatever the pool holds, so the batch lands in one or
// two blocks instead of one block per round trip.
func (c *chain) deploy(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.nonce != 0 {
		return errors.New("deployer has already sent transactions")
	}

	var hashes []common.Hash
	send := func(to *common.Address, data []byte, gas uint64) error {
		tx, err := c.sendLocked(ctx, to, nil, data, gas)
		if err != nil {
			return err
		}
		hashes = append(hashes, tx.Hash())
		return nil
	}

	for _, t := range devTokens {
		var data []byte
		var err error
		if t.wrapped {
			data = wethArtifact.Bytecode
		} else {
			data, err = devTokenArtifact.DeployData(t.Name, t.Symbol, t.Decimals)
		}
		if err != nil {
			return err
		}
		if err := send(nil, data, deployGas); err != nil {
			return fmt.Errorf("deploy %s: %w", t.Symbol, err)
		}
	}
	if err := send(nil, multicall3Artifact.Bytecode, deployGas); err != nil {
		return fmt.Errorf("deploy Multicall3: %w", err)
	}
	c.info.Multicall3 = multicall3Address
	for _, t := range devTokens {
		c.info.Tokens = append(c.info.Tokens, t.Token)
	}
	for _, f := range devFeeds {
		answer := new(big.Int).Mul(big.NewInt(f.initial), pow10(FeedDecimals))
		data, err := priceFeedArtifact.DeployData(uint8(FeedDecimals), f.description, answer)
		if err != nil {
			return err
		}
		if err := send(nil, data, deployGas); err != nil {
			return fmt.Errorf("deploy %s feed: %w", f.description, err)
		}
	}
	c.info.PriceFeeds = priceFeeds()
	if err := send(nil, ensRegistryArtifact.Bytecode, deployGas); err != nil {
		return fmt.Errorf("deploy DevENSRegistry: %w", err)
	}
	c.info.ENSRegistry = ensRegistryAddress
	urData, err := universalResolverArtifact.DeployData(ensRegistryAddress)
	if err != nil {
		return err
	}
	if err := send(nil, urData, deployGas); err != nil {
		return fmt.Errorf("deploy DevUniversalResolver: %w", err)
	}
	c.info.ENSUniversalResolver = ensUniversalResolverAddress

	for _, acc := range TestAccounts() {
		for _, t := range devTokens {
			if t.wrapped {
				continue
			}
			amount := new(big.Int).Mul(big.NewInt(initialMint), pow10(t.Decimals))
			data, err := devTokenArtifact.ABI.Pack("mint", acc.Address, amount)
			if err != nil {
				return err
			}
			if err := send(&t.Address, data, tokenGas); err != nil {
				return fmt.Errorf("mint %s: %w", t.Symbol, err)
			}
		}
	}

	receipts, err := c.waitMined(ctx, hashes...)
	if err != nil {
		return err
	}
	for i, r := range receipts {
		if r.Status != types.ReceiptStatusSuccessful {
			return fmt.Errorf("transaction %d (%s) reverted", i, r.TxHash.Hex())
		}
	}
	if err := c.deploySwap(ctx); err != nil {
		return fmt.Errorf("swap: %w", err)
	}
	if err := c.deployAA(ctx); err != nil {
		return fmt.Errorf("account abstraction: %w", err)
	}
	if err := c.deployFarcaster(ctx); err != nil {
		return fmt.Errorf("farcaster: %w", err)
	}
	return nil
}

// sendLocked signs and submits one deployer transaction with the next nonce.
// The caller holds c.mu. If submission fails the nonce is re-read from the
// pool, since a cancelled call may or may not have reached it.
func (c *chain) sendLocked(ctx context.Context, to *common.Address, value *big.Int, data []byte, gas uint64) (*types.Transaction, error) {
	if value == nil {
		value = new(big.Int)
	}
	head := c.backend.BlockChain().CurrentHeader()
	// Twice the current base fee covers several blocks of base-fee growth.
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), priorityFee)
	tx, err := types.SignNewTx(deployer.Key, c.signer, &types.DynamicFeeTx{
		ChainID:   c.chainID,
		Nonce:     c.nonce,
		GasTipCap: priorityFee,
		GasFeeCap: feeCap,
		Gas:       gas,
		To:        to,
		Value:     value,
		Data:      data,
	})
	if err != nil {
		return nil, err
	}
	if err := c.client.SendTransaction(ctx, tx); err != nil {
		if n, nerr := c.client.PendingNonceAt(context.Background(), deployer.Address); nerr == nil {
			c.nonce = n
		}
		return nil, err
	}
	c.nonce++
	return tx, nil
}

// waitMined waits until every transaction has a receipt and its block is the
// chain's head or below it, and returns the receipts in order. It wakes on each
// new head rather than polling on a long interval, so a dev block costs
// milliseconds, not a poll period. The receipt is readable a moment before the
// block becomes the head (the block is inserted, then made canonical by the
// beacon's forkchoice update), and a caller that reads "latest" next must see
// the transaction's effects.
func (c *chain) waitMined(ctx context.Context, hashes ...common.Hash) ([]*types.Receipt, error) {
	ctx, cancel := context.WithTimeout(ctx, mineTimeout)
	defer cancel()

	heads := make(chan core.ChainHeadEvent, 16)
	sub := c.backend.BlockChain().SubscribeChainHeadEvent(heads)
	defer sub.Unsubscribe()
	// The transaction index can trail the head event by a moment.
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()

	receipts := make([]*types.Receipt, 0, len(hashes))
	for _, h := range hashes {
		for {
			if r := c.receipt(h); r != nil && c.backend.BlockChain().CurrentBlock().Number.Cmp(r.BlockNumber) >= 0 {
				receipts = append(receipts, r)
				break
			}
			select {
			case <-ctx.Done():
				return nil, fmt.Errorf("wait for transaction %s: %w", h.Hex(), ctx.Err())
			case <-heads:
			case <-tick.C:
			}
		}
	}
	return receipts, nil
}

// receipt reads a mined transaction's receipt straight from the chain, or
// returns nil. Going through eth_getTransactionReceipt instead would log an
// RPC warning each time the index is a moment behind.
func (c *chain) receipt(hash common.Hash) *types.Receipt {
	bc := c.backend.BlockChain()
	lookup, tx := bc.GetCanonicalTransaction(hash)
	if lookup == nil || tx == nil {
		return nil
	}
	r, err := bc.GetCanonicalReceipt(tx, lookup.BlockHash, lookup.BlockIndex, lookup.Index)
	if err != nil {
		return nil
	}
	return r
}

// pow10 returns 10^n.
func pow10(n uint8) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}
