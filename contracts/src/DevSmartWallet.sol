// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

// DevSmartWallet is the smallest ERC-1271 smart wallet: a signature is valid
// when its signer is the wallet's owner. Sign-in tests use it as a deployed
// smart account and, through DevSmartWalletFactory, as an undeployed
// (ERC-6492 counterfactual) one.
contract DevSmartWallet {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    // isValidSignature answers ERC-1271's magic value 0x1626ba7e when
    // signature is owner's 65-byte (r, s, v) signature of hash.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        address signer = ecrecover(hash, v, r, s);
        if (signer != address(0) && signer == owner) return 0x1626ba7e;
        return 0xffffffff;
    }
}

// DevSmartWalletFactory deploys DevSmartWallets with CREATE2, so a wallet's
// address is known before it exists.
contract DevSmartWalletFactory {
    event Deployed(address wallet, address owner, bytes32 salt);

    function deploy(address owner, bytes32 salt) external returns (address wallet) {
        wallet = address(new DevSmartWallet{salt: salt}(owner));
        emit Deployed(wallet, owner, salt);
    }

    function walletAddress(address owner, bytes32 salt) external view returns (address) {
        bytes32 codeHash = keccak256(abi.encodePacked(type(DevSmartWallet).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, codeHash)))));
    }
}
