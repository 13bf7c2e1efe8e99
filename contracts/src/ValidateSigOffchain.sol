// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

// The universal signature validator of ERC-6492, written after the ERC's
// description. latchd never deploys it: it sends ValidateSigOffchain's
// creation code, followed by its constructor arguments, as an eth_call
// without a recipient, and reads the one byte the constructor returns
// (0x01 valid, 0x00 not).

contract UniversalSigValidator {
    bytes32 private constant ERC6492_DETECTION_SUFFIX = 0x6492649264926492649264926492649264926492649264926492649264926492;
    bytes4 private constant ERC1271_SUCCESS = 0x1626ba7e;

    error ERC1271Revert(bytes error);
    error ERC6492DeployFailed(bytes error);

    // isValidSigWithSideEffects checks signature of hash by signer: an
    // ERC-6492 wrapped signature first deploys signer through its factory
    // call (the side effect, which only lasts for an eth_call), a contract
    // signer is asked through ERC-1271, and any other signer by ecrecover.
    function isValidSigWithSideEffects(address signer, bytes32 hash, bytes calldata signature) public returns (bool) {
        bool wrapped = signature.length >= 32 && bytes32(signature[signature.length - 32:]) == ERC6492_DETECTION_SUFFIX;
        bytes memory sig = signature;
        if (wrapped) {
            address factory;
            bytes memory factoryCalldata;
            (factory, factoryCalldata, sig) = abi.decode(signature[0:signature.length - 32], (address, bytes, bytes));
            if (signer.code.length == 0) {
                (bool ok, bytes memory err) = factory.call(factoryCalldata);
                if (!ok) revert ERC6492DeployFailed(err);
            }
        }
        if (signer.code.length > 0) {
            (bool ok, bytes memory ret) = signer.staticcall(abi.encodeWithSelector(ERC1271_SUCCESS, hash, sig));
            if (!ok) revert ERC1271Revert(ret);
            return ret.length >= 32 && bytes4(bytes32(ret)) == ERC1271_SUCCESS;
        }
        if (sig.length != 65) return false;
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(sig, 0x20))
            s := mload(add(sig, 0x40))
            v := byte(0, mload(add(sig, 0x60)))
        }
        if (v < 27) v += 27;
        address recovered = ecrecover(hash, v, r, s);
        return recovered != address(0) && recovered == signer;
    }
}

contract ValidateSigOffchain {
    constructor(address signer, bytes32 hash, bytes memory signature) {
        bool valid = new UniversalSigValidator().isValidSigWithSideEffects(signer, hash, signature);
        assembly {
            mstore(0, valid)
            return(31, 1)
        }
    }
}
