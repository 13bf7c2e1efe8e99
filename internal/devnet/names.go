package devnet

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/latchkit/latch/contracts"
	"github.com/latchkit/latch/internal/ens"
)

var offchainResolverArtifact = contracts.MustLoad("OffchainResolver")

// SetNamesGateway implements devchain.Chains: on every chain it deploys an
// OffchainResolver (gatewayURL, [signer]) and sets it as the resolver of
// zone's node in the dev ENS registry. Called again, it deploys a new
// resolver and repoints the zone.
func (d *Devnet) SetNamesGateway(ctx context.Context, zone, gatewayURL string, signer common.Address) error {
	for _, c := range d.chains {
		if err := c.setNamesGateway(ctx, zone, gatewayURL, signer); err != nil {
			return fmt.Errorf("%s: names resolver: %w", c.info.CAIPNetworkID, err)
		}
	}
	return nil
}

func (c *chain) setNamesGateway(ctx context.Context, zone, gatewayURL string, signer common.Address) error {
	deploy, err := offchainResolverArtifact.DeployData(gatewayURL, []common.Address{signer})
	if err != nil {
		return err
	}
	c.mu.Lock()
	resolver := crypto.CreateAddress(deployer.Address, c.nonce)
	var txs []*types.Transaction
	tx, err := c.sendLocked(ctx, nil, nil, deploy, deployGas)
	if err == nil {
		txs = append(txs, tx)
		point, _ := ensRegistryArtifact.ABI.Pack("setResolver", ens.Namehash(zone), resolver)
		tx, err = c.sendLocked(ctx, &ensRegistryAddress, nil, point, tokenGas)
		txs = append(txs, tx)
	}
	c.mu.Unlock()
	if err != nil {
		return err
	}
	receipts, err := c.waitMined(ctx, txs[0].Hash(), txs[1].Hash())
	if err != nil {
		return err
	}
	for _, r := range receipts {
		if r.Status != types.ReceiptStatusSuccessful {
			return fmt.Errorf("transaction %s reverted", r.TxHash.Hex())
		}
	}
	c.mu.Lock()
	c.info.NamesResolver = resolver
	c.mu.Unlock()
	return nil
}
