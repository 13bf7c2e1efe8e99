// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAccount, IEntryPoint, PackedUserOperation} from "./LatchEntryPoint.sol";

// LatchSignatures recovers the signer of 65-byte (r, s, v) ECDSA signatures.
library LatchSignatures {
    // Half the secp256k1 order: a signature with a larger s is the malleable
    // twin of one with a smaller s and is refused.
    uint256 private constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    // recover returns the signer of digest, or address(0) for a malformed signature.
    function recover(bytes32 digest, bytes calldata signature) internal pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (uint256(s) > HALF_ORDER || (v != 27 && v != 28)) return address(0);
        return ecrecover(digest, v, r, s);
    }

    // ethSignedMessageHash is the EIP-191 personal_sign digest of a 32-byte hash.
    function ethSignedMessageHash(bytes32 hash) internal pure returns (bytes32) {
        return keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n32", hash));
    }
}

// LatchSmartAccount is the embedded wallet's ERC-4337 account: one EOA owner
// signs its user operations (personal_sign of the userOpHash) and its
// ERC-1271 messages; the EntryPoint or the owner can make it call out.
contract LatchSmartAccount {
    IEntryPoint public immutable entryPoint;
    address public immutable owner;

    bytes4 private constant ERC1271_MAGIC = 0x1626ba7e;
    uint256 private constant SIG_VALIDATION_FAILED = 1;

    error NotEntryPointOrOwner(address caller);
    error LengthMismatch();

    constructor(IEntryPoint entryPoint_, address owner_) {
        entryPoint = entryPoint_;
        owner = owner_;
    }

    receive() external payable {}

    modifier onlyEntryPointOrOwner() {
        if (msg.sender != address(entryPoint) && msg.sender != owner) revert NotEntryPointOrOwner(msg.sender);
        _;
    }

    // validateUserOp answers 0 when the owner signed userOpHash and
    // SIG_VALIDATION_FAILED otherwise (not a revert, so a bundler can
    // estimate gas with a placeholder signature), and pays the EntryPoint
    // what the operation still needs.
    function validateUserOp(PackedUserOperation calldata userOp, bytes32 userOpHash, uint256 missingAccountFunds)
        external
        returns (uint256 validationData)
    {
        require(msg.sender == address(entryPoint), "account: not from EntryPoint");
        address signer = LatchSignatures.recover(LatchSignatures.ethSignedMessageHash(userOpHash), userOp.signature);
        validationData = signer == owner ? 0 : SIG_VALIDATION_FAILED;
        if (missingAccountFunds > 0) {
            (bool ok,) = payable(msg.sender).call{value: missingAccountFunds}("");
            (ok); // the EntryPoint checks the deposit itself
        }
    }

    // execute calls dest with value and data, bubbling up a revert.
    function execute(address dest, uint256 value, bytes calldata data) external onlyEntryPointOrOwner {
        _call(dest, value, data);
    }

    // executeBatch makes several calls; values may be empty (all zero).
    function executeBatch(address[] calldata dest, uint256[] calldata value, bytes[] calldata data)
        external
        onlyEntryPointOrOwner
    {
        if (dest.length != data.length || (value.length != 0 && value.length != dest.length)) revert LengthMismatch();
        for (uint256 i = 0; i < dest.length; i++) {
            _call(dest[i], value.length == 0 ? 0 : value[i], data[i]);
        }
    }

    // isValidSignature (ERC-1271) accepts the owner's signature of hash.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        address signer = LatchSignatures.recover(hash, signature);
        if (signer != address(0) && signer == owner) return ERC1271_MAGIC;
        return 0xffffffff;
    }

    // addDeposit and getDeposit manage the account's deposit in the EntryPoint.
    function addDeposit() external payable {
        entryPoint.depositTo{value: msg.value}(address(this));
    }

    function getDeposit() external view returns (uint256) {
        return entryPoint.balanceOf(address(this));
    }

    function _call(address target, uint256 value, bytes memory data) internal {
        (bool ok, bytes memory result) = target.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
    }
}

// LatchSmartAccountFactory deploys LatchSmartAccounts with CREATE2, so an
// account's address is known (counterfactual) before it exists: the initCode
// of a first user operation is this factory followed by
// createAccount(owner, salt).
contract LatchSmartAccountFactory {
    IEntryPoint public immutable entryPoint;

    constructor(IEntryPoint entryPoint_) {
        entryPoint = entryPoint_;
    }

    // createAccount deploys the account of (owner, salt), or returns it if it
    // already exists, so a retried initCode still answers the address.
    function createAccount(address owner, uint256 salt) external returns (LatchSmartAccount account) {
        address addr = getAddress(owner, salt);
        if (addr.code.length > 0) return LatchSmartAccount(payable(addr));
        account = new LatchSmartAccount{salt: bytes32(salt)}(entryPoint, owner);
    }

    // getAddress is the address createAccount(owner, salt) deploys to.
    function getAddress(address owner, uint256 salt) public view returns (address) {
        bytes32 codeHash =
            keccak256(abi.encodePacked(type(LatchSmartAccount).creationCode, abi.encode(entryPoint, owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), bytes32(salt), codeHash)))));
    }
}
