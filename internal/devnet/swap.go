package devnet

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/contracts"
)

// swapDeployer deploys the dev AMM (LatchSwap) and seeds its pools. It has
// its own key, from a fixed label, so the AMM's addresses depend on nothing
// else the dev chains deploy: factory at nonce 0, router at nonce 1, and the
// pools are the factory's first contracts (its nonces 1, 2, 3).
var swapDeployer = func() Account {
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("latch devnet swap deployer v1")))
	if err != nil {
		panic(err) // a fixed 32-byte hash below the curve order
	}
	return Account{Address: crypto.PubkeyToAddress(key.PublicKey), Key: key}
}()

// swapDeployerBalance pays for the WETH in the pools and the gas.
var swapDeployerBalance = ether(100_000)

var (
	swapFactoryAddress = crypto.CreateAddress(swapDeployer.Address, 0)
	swapRouterAddress  = crypto.CreateAddress(swapDeployer.Address, 1)
)

// swapPool is a pool the dev chains start with, and its reserves in whole
// units. The reserves follow the dev price feeds' starting prices (ETH 3000
// USD, USDC and DAI 1 USD), so quotes agree with the prices the widget shows.
type swapPool struct {
	a, b         string // token symbols
	reserveA     int64
	reserveB     int64
	factoryNonce uint64 // the factory's nonce that creates the pool
}

var swapPools = []swapPool{
	{a: "USDC", b: "WETH", reserveA: 3_000_000, reserveB: 1_000, factoryNonce: 1},
	{a: "DAI", b: "USDC", reserveA: 1_000_000, reserveB: 1_000_000, factoryNonce: 2},
	{a: "WETH", b: "DAI", reserveA: 1_000, reserveB: 3_000_000, factoryNonce: 3},
}

// pairGas covers createPair (a pool's creation code and two storage slots).
const pairGas = 2_000_000

var (
	swapFactoryArtifact = contracts.MustLoad("LatchSwapFactory")
	swapRouterArtifact  = contracts.MustLoad("LatchSwapRouter")
	swapPairArtifact    = contracts.MustLoad("LatchSwapPair")
)

// deploySwap deploys LatchSwap and seeds the pools. Only the main deployer
// may mint dev tokens, so it mints each pool's USDC and DAI straight to the
// pool's (precomputed) address; no contract address moves by that, since
// every deployment of the main deployer precedes it. The swap deployer wraps
// ether for the WETH sides. A pool's mint must follow both, so it is a
// second round. The caller holds c.mu.
func (c *chain) deploySwap(ctx context.Context) error {
	byName := map[string]devToken{}
	for _, t := range devTokens {
		byName[t.Symbol] = t
	}
	var swapNonce uint64
	var hashes []common.Hash
	sendSwap := func(to *common.Address, value *big.Int, data []byte, gas uint64) error {
		tx, err := c.sendAs(ctx, swapDeployer, swapNonce, to, value, data, gas)
		if err != nil {
			return err
		}
		swapNonce++
		hashes = append(hashes, tx.Hash())
		return nil
	}

	if err := sendSwap(nil, nil, swapFactoryArtifact.Bytecode, deployGas); err != nil {
		return fmt.Errorf("deploy LatchSwapFactory: %w", err)
	}
	routerData, err := swapRouterArtifact.DeployData(swapFactoryAddress, byName["WETH"].Address)
	if err != nil {
		return err
	}
	if err := sendSwap(nil, nil, routerData, deployGas); err != nil {
		return fmt.Errorf("deploy LatchSwapRouter: %w", err)
	}
	weth := byName["WETH"].Address
	for _, p := range swapPools {
		create, err := swapFactoryArtifact.ABI.Pack("createPair", byName[p.a].Address, byName[p.b].Address)
		if err != nil {
			return err
		}
		if err := sendSwap(&swapFactoryAddress, nil, create, pairGas); err != nil {
			return fmt.Errorf("create %s/%s pool: %w", p.a, p.b, err)
		}
		pair := crypto.CreateAddress(swapFactoryAddress, p.factoryNonce)
		for _, side := range []struct {
			symbol string
			amount int64
		}{{p.a, p.reserveA}, {p.b, p.reserveB}} {
			t := byName[side.symbol]
			amount := new(big.Int).Mul(big.NewInt(side.amount), pow10(t.Decimals))
			if t.wrapped {
				if err := sendSwap(&weth, amount, nil, tokenGas); err != nil {
					return fmt.Errorf("wrap ether for the %s/%s pool: %w", p.a, p.b, err)
				}
				data, _ := wethArtifact.ABI.Pack("transfer", pair, amount)
				if err := sendSwap(&weth, nil, data, tokenGas); err != nil {
					return fmt.Errorf("fund the %s/%s pool: %w", p.a, p.b, err)
				}
				continue
			}
			data, _ := devTokenArtifact.ABI.Pack("mint", pair, amount)
			tx, err := c.sendLocked(ctx, &t.Address, nil, data, tokenGas)
			if err != nil {
				return fmt.Errorf("fund the %s/%s pool: %w", p.a, p.b, err)
			}
			hashes = append(hashes, tx.Hash())
		}
	}
	if err := c.waitSucceeded(ctx, hashes); err != nil {
		return err
	}

	hashes = hashes[:0]
	for _, p := range swapPools {
		pair := crypto.CreateAddress(swapFactoryAddress, p.factoryNonce)
		data, _ := swapPairArtifact.ABI.Pack("mint", swapDeployer.Address)
		if err := sendSwap(&pair, nil, data, tokenGas*2); err != nil {
			return fmt.Errorf("seed the %s/%s pool: %w", p.a, p.b, err)
		}
	}
	if err := c.waitSucceeded(ctx, hashes); err != nil {
		return err
	}
	c.info.SwapFactory = swapFactoryAddress
	c.info.SwapRouter = swapRouterAddress
	return nil
}

// waitSucceeded waits for the transactions and fails if any reverted.
func (c *chain) waitSucceeded(ctx context.Context, hashes []common.Hash) error {
	receipts, err := c.waitMined(ctx, hashes...)
	if err != nil {
		return err
	}
	for _, r := range receipts {
		if r.Status != types.ReceiptStatusSuccessful {
			return fmt.Errorf("transaction %s reverted", r.TxHash.Hex())
		}
	}
	return nil
}

// sendAs signs and submits a transaction from acc at nonce, with the fees
// sendLocked uses.
func (c *chain) sendAs(ctx context.Context, acc Account, nonce uint64, to *common.Address, value *big.Int, data []byte, gas uint64) (*types.Transaction, error) {
	if value == nil {
		value = new(big.Int)
	}
	head := c.backend.BlockChain().CurrentHeader()
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), priorityFee)
	tx, err := types.SignNewTx(acc.Key, c.signer, &types.DynamicFeeTx{
		ChainID: c.chainID, Nonce: nonce, GasTipCap: priorityFee, GasFeeCap: feeCap,
		Gas: gas, To: to, Value: value, Data: data,
	})
	if err != nil {
		return nil, err
	}
	if err := c.client.SendTransaction(ctx, tx); err != nil {
		return nil, err
	}
	return tx, nil
}
