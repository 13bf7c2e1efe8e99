package bundler_test

import (
	"crypto/ecdsa"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

func signTx(t testing.TB, key *ecdsa.PrivateKey, nonce uint64, to common.Address, value, baseFee *big.Int) *types.Transaction {
	t.Helper()
	id := new(big.Int).SetUint64(chain.ChainID)
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(id), &types.DynamicFeeTx{
		ChainID: id, Nonce: nonce, GasTipCap: big.NewInt(1), GasFeeCap: new(big.Int).Mul(baseFee, big.NewInt(3)),
		Gas: 21_000, To: &to, Value: value,
	})
	if err != nil {
		t.Fatal(err)
	}
	return tx
}
