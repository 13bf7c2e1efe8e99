package devnet

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/devchain"
)

// farcasterDeployer deploys the dev copy of Farcaster's ID registry
// (DevFarcasterIdRegistry) and registers the test Farcaster account in it.
// It has its own key, from a fixed label, so the registry's address depends
// on nothing else the dev chains deploy: the registry is its nonce 0.
var farcasterDeployer = func() Account {
	key, err := crypto.ToECDSA(crypto.Keccak256([]byte("latch devnet farcaster deployer v1")))
	if err != nil {
		panic(err) // a fixed 32-byte hash below the curve order
	}
	return Account{Address: crypto.PubkeyToAddress(key.PublicKey), Key: key}
}()

// FarcasterIDRegistryAddress is the dev ID registry, the same on every dev chain.
var FarcasterIDRegistryAddress = crypto.CreateAddress(farcasterDeployer.Address, 0)

// DevFarcasterCustody is the custody account of devchain.DevFarcasterFID.
var DevFarcasterCustody = Account{Address: crypto.PubkeyToAddress(devchain.DevFarcasterCustodyKey().PublicKey), Key: devchain.DevFarcasterCustodyKey()}

// farcasterDeployerBalance pays the deployment and the registrations.
var farcasterDeployerBalance = ether(100)

var farcasterIDRegistryArtifact = contracts.MustLoad("DevFarcasterIdRegistry")

// registerGas covers a registration (two new storage slots and the counter).
const registerGas = 150_000

// deployFarcaster deploys the ID registry and registers DevFarcasterCustody
// as its first fid (devchain.DevFarcasterFID). The caller holds c.mu.
func (c *chain) deployFarcaster(ctx context.Context) error {
	register, err := farcasterIDRegistryArtifact.ABI.Pack("register", DevFarcasterCustody.Address)
	if err != nil {
		return err
	}
	registry := FarcasterIDRegistryAddress
	var hashes []common.Hash
	for nonce, s := range []struct {
		what string
		to   *common.Address
		data []byte
		gas  uint64
	}{
		{"deploy DevFarcasterIdRegistry", nil, farcasterIDRegistryArtifact.Bytecode, deployGas},
		{"register the dev custody address", &registry, register, registerGas},
	} {
		tx, err := c.sendAs(ctx, farcasterDeployer, uint64(nonce), s.to, new(big.Int), s.data, s.gas)
		if err != nil {
			return fmt.Errorf("%s: %w", s.what, err)
		}
		hashes = append(hashes, tx.Hash())
	}
	if err := c.waitSucceeded(ctx, hashes); err != nil {
		return err
	}
	c.info.FarcasterIDRegistry = FarcasterIDRegistryAddress
	return nil
}
