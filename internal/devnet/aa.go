package devnet

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/devchain"
)

// aaDeployer deploys the ERC-4337 contracts (issue 17). It has its own key,
// from a fixed label, so their addresses depend on nothing else the dev
// chains deploy: EntryPoint at nonce 0 (its LatchSenderCreator is the
// EntryPoint's first CREATE), the account factory at 1, the verifying
// paymaster at 2.
var aaDeployer = func() Account {
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("latch devnet aa deployer v1")))
	if err != nil {
		panic(err) // a fixed 32-byte hash below the curve order
	}
	return Account{Address: crypto.PubkeyToAddress(key.PublicKey), Key: key}
}()

// The dev bundler and the paymaster signer: latchd dev uses the same keys (devchain).
var (
	DevBundler         = Account{Address: crypto.PubkeyToAddress(devchain.DevBundlerKey().PublicKey), Key: devchain.DevBundlerKey()}
	DevPaymasterSigner = Account{Address: crypto.PubkeyToAddress(devchain.DevPaymasterSignerKey().PublicKey), Key: devchain.DevPaymasterSignerKey()}
)

var (
	// EntryPointAddress, SmartAccountFactoryAddress and
	// VerifyingPaymasterAddress are the same on every dev chain.
	EntryPointAddress          = crypto.CreateAddress(aaDeployer.Address, 0)
	SmartAccountFactoryAddress = crypto.CreateAddress(aaDeployer.Address, 1)
	VerifyingPaymasterAddress  = crypto.CreateAddress(aaDeployer.Address, 2)
)

// aaDeployerBalance pays the deployments, the paymaster's deposit and the
// bundler's ether; paymasterDeposit and bundlerFunds are those last two.
var (
	aaDeployerBalance = ether(10_000_000)
	paymasterDeposit  = ether(1_000_000)
	bundlerFunds      = ether(1_000_000)
)

// entryPointGas covers the EntryPoint's creation code and its sender creator's.
const entryPointGas = 6_000_000

var (
	entryPointArtifact          = contracts.MustLoad("LatchEntryPoint")
	smartAccountFactoryArtifact = contracts.MustLoad("LatchSmartAccountFactory")
	verifyingPaymasterArtifact  = contracts.MustLoad("LatchVerifyingPaymaster")
)

// deployAA deploys the EntryPoint, the account factory and the verifying
// paymaster (signer DevPaymasterSigner, owner aaDeployer), deposits for the
// paymaster and funds DevBundler; the batch is sent at once and waited for.
func (c *chain) deployAA(ctx context.Context) error {
	factoryData, err := smartAccountFactoryArtifact.DeployData(EntryPointAddress)
	if err != nil {
		return err
	}
	paymasterData, err := verifyingPaymasterArtifact.DeployData(EntryPointAddress, DevPaymasterSigner.Address, aaDeployer.Address)
	if err != nil {
		return err
	}
	deposit, err := verifyingPaymasterArtifact.ABI.Pack("deposit")
	if err != nil {
		return err
	}
	bundler := DevBundler.Address
	paymaster := VerifyingPaymasterAddress
	steps := []struct {
		what  string
		to    *common.Address
		value *big.Int
		data  []byte
		gas   uint64
	}{
		{"deploy LatchEntryPoint", nil, nil, entryPointArtifact.Bytecode, entryPointGas},
		{"deploy LatchSmartAccountFactory", nil, nil, factoryData, deployGas},
		{"deploy LatchVerifyingPaymaster", nil, nil, paymasterData, deployGas},
		{"paymaster deposit", &paymaster, paymasterDeposit, deposit, tokenGas},
		{"fund the bundler", &bundler, bundlerFunds, nil, 21_000},
	}
	hashes := make([]common.Hash, 0, len(steps))
	for nonce, s := range steps {
		tx, err := c.sendAAStep(ctx, uint64(nonce), s.to, s.value, s.data, s.gas)
		if err != nil {
			return fmt.Errorf("%s: %w", s.what, err)
		}
		hashes = append(hashes, tx.Hash())
	}
	receipts, err := c.waitMined(ctx, hashes...)
	if err != nil {
		return err
	}
	for i, r := range receipts {
		if r.Status != types.ReceiptStatusSuccessful {
			return fmt.Errorf("%s: transaction %s reverted", steps[i].what, r.TxHash.Hex())
		}
	}
	c.info.EntryPoint = EntryPointAddress
	c.info.SmartAccountFactory = SmartAccountFactoryAddress
	c.info.VerifyingPaymaster = VerifyingPaymasterAddress
	return nil
}

// sendAAStep signs and submits one aaDeployer transaction at nonce.
func (c *chain) sendAAStep(ctx context.Context, nonce uint64, to *common.Address, value *big.Int, data []byte, gas uint64) (*types.Transaction, error) {
	if value == nil {
		value = new(big.Int)
	}
	head := c.backend.BlockChain().CurrentHeader()
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), priorityFee)
	tx, err := types.SignNewTx(aaDeployer.Key, c.signer, &types.DynamicFeeTx{
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
