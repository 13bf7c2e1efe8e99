// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IEntryPoint, IPaymaster, PackedUserOperation, PostOpMode} from "./LatchEntryPoint.sol";
import {LatchSignatures} from "./LatchSmartAccount.sol";

// LatchVerifyingPaymaster pays for the user operations its signer (latchd's
// paymaster key) approved. paymasterAndData is paymaster (20 bytes) |
// paymasterVerificationGasLimit (16) | paymasterPostOpGasLimit (16) |
// validUntil (6) | validAfter (6) | bundler (20) | signature (65): the
// signer's personal_sign of getHash(op, validUntil, validAfter, bundler).
// postOp emits Sponsored with what each operation cost, for latchd's
// accounting.
//
// bundler binds an approval to the bundle transactions one key sends:
// handleOps pays each operation's gas to whatever beneficiary its sender
// names, so an approval anyone could bundle would let its holder collect
// what ERC-4337 pays a bundler (the 10% charge on unused gas, overheads a
// bundle pays once) from this paymaster's deposit. An approval with a
// bundler validates only when that address sent the transaction
// (tx.origin); one with the zero address, in any bundle. A mismatch fails
// as a bad signature (SIG_VALIDATION_FAILED, AA34) rather than a revert,
// as ERC-4337 asks of a signature check.
contract LatchVerifyingPaymaster is IPaymaster {
    IEntryPoint public immutable entryPoint;
    address public immutable verifyingSigner;
    address public owner;

    uint256 private constant DATA_OFFSET = 52; // after address and the two gas limits
    uint256 private constant BUNDLER_OFFSET = DATA_OFFSET + 12; // after validUntil and validAfter
    uint256 private constant SIGNATURE_OFFSET = BUNDLER_OFFSET + 20;

    event Sponsored(bytes32 indexed userOpHash, address indexed sender, uint256 actualGasCost, bool succeeded);

    error NotEntryPoint(address caller);
    error NotOwner(address caller);
    error InvalidPaymasterData(uint256 length);

    constructor(IEntryPoint entryPoint_, address verifyingSigner_, address owner_) {
        entryPoint = entryPoint_;
        verifyingSigner = verifyingSigner_;
        owner = owner_;
    }

    // getHash is what the signer signs: every field of op except its
    // signature and the paymaster's own signature, bound to this chain,
    // this paymaster, the validity window and the bundler.
    function getHash(PackedUserOperation calldata op, uint48 validUntil, uint48 validAfter, address bundler)
        public
        view
        returns (bytes32)
    {
        return keccak256(
            abi.encode(
                op.sender,
                op.nonce,
                keccak256(op.initCode),
                keccak256(op.callData),
                op.accountGasLimits,
                bytes32(op.paymasterAndData[20:52]),
                op.preVerificationGas,
                op.gasFees,
                block.chainid,
                address(this),
                validUntil,
                validAfter,
                bundler
            )
        );
    }

    function validatePaymasterUserOp(PackedUserOperation calldata op, bytes32 userOpHash, uint256)
        external
        view
        returns (bytes memory context, uint256 validationData)
    {
        if (msg.sender != address(entryPoint)) revert NotEntryPoint(msg.sender);
        bytes calldata pmd = op.paymasterAndData;
        if (pmd.length < SIGNATURE_OFFSET) revert InvalidPaymasterData(pmd.length);
        uint48 validUntil = uint48(bytes6(pmd[DATA_OFFSET:DATA_OFFSET + 6]));
        uint48 validAfter = uint48(bytes6(pmd[DATA_OFFSET + 6:BUNDLER_OFFSET]));
        address bundler = address(bytes20(pmd[BUNDLER_OFFSET:SIGNATURE_OFFSET]));
        bytes32 digest = LatchSignatures.ethSignedMessageHash(getHash(op, validUntil, validAfter, bundler));
        address signer = LatchSignatures.recover(digest, pmd[SIGNATURE_OFFSET:]);
        // tx.origin is read only for an approval bound to a bundler (the
        // || stops first otherwise), so unbound approvals keep ERC-7562's
        // OP-011; latchd's bundler allows this paymaster's ORIGIN.
        bool bundlerOK = bundler == address(0) || tx.origin == bundler;
        uint256 failed = signer != address(0) && signer == verifyingSigner && bundlerOK ? 0 : 1;
        validationData = failed | (uint256(validUntil) << 160) | (uint256(validAfter) << 208);
        context = abi.encode(userOpHash, op.sender);
    }

    function postOp(PostOpMode mode, bytes calldata context, uint256 actualGasCost, uint256) external {
        if (msg.sender != address(entryPoint)) revert NotEntryPoint(msg.sender);
        (bytes32 userOpHash, address sender) = abi.decode(context, (bytes32, address));
        emit Sponsored(userOpHash, sender, actualGasCost, mode == PostOpMode.opSucceeded);
    }

    // deposit adds to the paymaster's deposit in the EntryPoint, from which
    // sponsored operations are paid.
    function deposit() external payable {
        entryPoint.depositTo{value: msg.value}(address(this));
    }

    function getDeposit() external view returns (uint256) {
        return entryPoint.balanceOf(address(this));
    }

    function withdrawTo(address payable to, uint256 amount) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        entryPoint.withdrawTo(to, amount);
    }
}
