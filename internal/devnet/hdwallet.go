package devnet

import (
	"crypto/ecdsa"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
)

// TestMnemonic is the well-known development mnemonic (Hardhat, Anvil, Foundry)
// whose first accounts every dev chain funds, so wallets and tools already know them.
const TestMnemonic = "test test test test test test test test test test test junk"

// testAccountCount is how many accounts of TestMnemonic the dev chains fund.
const testAccountCount = 10

// hardened marks a BIP-32 child index as hardened.
const hardened = 1 << 31

// Account is a funded development account and its private key.
type Account struct {
	Address common.Address
	Key     *ecdsa.PrivateKey
}

var (
	testAccountsOnce sync.Once
	testAccounts     []Account
)

// TestAccounts returns the first ten accounts of TestMnemonic at
// m/44'/60'/0'/0/i. Account 0 is 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266.
func TestAccounts() []Account {
	testAccountsOnce.Do(func() {
		accs, err := deriveAccounts(TestMnemonic, testAccountCount)
		if err != nil {
			panic(err) // a constant mnemonic cannot fail to derive
		}
		testAccounts = accs
	})
	return append([]Account(nil), testAccounts...)
}

// deriveAccounts derives the first n accounts of an Ethereum BIP-44 wallet.
func deriveAccounts(mnemonic string, n int) ([]Account, error) {
	seed, err := bip39Seed(mnemonic, "")
	if err != nil {
		return nil, err
	}
	// m/44'/60'/0'/0 is shared; derive it once and branch the last level.
	parent, err := newMasterKey(seed)
	if err != nil {
		return nil, err
	}
	for _, idx := range []uint32{44 + hardened, 60 + hardened, 0 + hardened, 0} {
		if parent, err = parent.child(idx); err != nil {
			return nil, err
		}
	}
	accs := make([]Account, 0, n)
	for i := range n {
		k, err := parent.child(uint32(i))
		if err != nil {
			return nil, err
		}
		key, err := crypto.ToECDSA(math.PaddedBigBytes(k.key, 32))
		if err != nil {
			return nil, err
		}
		accs = append(accs, Account{Address: crypto.PubkeyToAddress(key.PublicKey), Key: key})
	}
	return accs, nil
}

// bip39Seed turns a mnemonic into the 64-byte BIP-39 seed. The word list is not
// checked: only the fixed ASCII test mnemonic is used, for which NFKD
// normalisation is the identity.
func bip39Seed(mnemonic, passphrase string) ([]byte, error) {
	mnemonic = strings.Join(strings.Fields(mnemonic), " ")
	return pbkdf2.Key(sha512.New, mnemonic, []byte("mnemonic"+passphrase), 2048, 64)
}

// extendedKey is a BIP-32 extended private key.
type extendedKey struct {
	key       *big.Int
	chainCode []byte
}

var errInvalidChild = errors.New("hdwallet: derived key is invalid")

func newMasterKey(seed []byte) (*extendedKey, error) {
	mac := hmac.New(sha512.New, []byte("Bitcoin seed"))
	mac.Write(seed)
	sum := mac.Sum(nil)
	k := new(big.Int).SetBytes(sum[:32])
	if k.Sign() == 0 || k.Cmp(crypto.S256().Params().N) >= 0 {
		return nil, errInvalidChild
	}
	return &extendedKey{key: k, chainCode: sum[32:]}, nil
}

// child is BIP-32 CKDpriv: hardened children hash the private key, normal ones
// the compressed public key, so public derivation stays possible for them.
func (k *extendedKey) child(index uint32) (*extendedKey, error) {
	var data []byte
	if index >= hardened {
		data = append([]byte{0}, math.PaddedBigBytes(k.key, 32)...)
	} else {
		priv, err := crypto.ToECDSA(math.PaddedBigBytes(k.key, 32))
		if err != nil {
			return nil, fmt.Errorf("hdwallet: %w", err)
		}
		data = crypto.CompressPubkey(&priv.PublicKey)
	}
	data = binary.BigEndian.AppendUint32(data, index)

	mac := hmac.New(sha512.New, k.chainCode)
	mac.Write(data)
	sum := mac.Sum(nil)

	n := crypto.S256().Params().N
	il := new(big.Int).SetBytes(sum[:32])
	if il.Cmp(n) >= 0 {
		return nil, errInvalidChild
	}
	childKey := il.Add(il, k.key)
	childKey.Mod(childKey, n)
	if childKey.Sign() == 0 {
		return nil, errInvalidChild
	}
	return &extendedKey{key: childKey, chainCode: sum[32:]}, nil
}
