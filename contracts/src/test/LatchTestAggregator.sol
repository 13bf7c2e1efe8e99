// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAggregator, IEntryPoint, PackedUserOperation} from "../LatchEntryPoint.sol";
import {LatchSignatures} from "../LatchSmartAccount.sol";

// Test-only contracts for the EntryPoint's handleAggregatedOps; never
// deployed by latchd. LatchTestAggregator stands in for a real aggregation
// scheme (BLS and the like): its "aggregate" is every operation's owner
// signature (personal_sign of the userOpHash, 65 bytes each) concatenated
// in the group's order, and it checks each against the account's owner. So
// it is exactly as strict as the accounts' own signatures, with the check
// moved out of validateUserOp, which is what aggregation does.
contract LatchTestAggregator is IAggregator {
    IEntryPoint public immutable entryPoint;

    constructor(IEntryPoint entryPoint_) {
        entryPoint = entryPoint_;
    }

    // validateSignatures reverts unless signature is the concatenated owner
    // signatures of userOps. The accounts must be deployed already: their
    // owner is read from them.
    function validateSignatures(PackedUserOperation[] calldata userOps, bytes calldata signature) external view {
        require(signature.length == userOps.length * 65, "aggregator: wrong signature length");
        for (uint256 i = 0; i < userOps.length; i++) {
            require(_signedByOwner(userOps[i], signature[i * 65:(i + 1) * 65]), "aggregator: bad signature");
        }
    }

    // validateUserOpSignature checks one operation's own signature and
    // answers the empty signature it carries inside an aggregated bundle.
    function validateUserOpSignature(PackedUserOperation calldata userOp) external view returns (bytes memory) {
        require(_signedByOwner(userOp, userOp.signature), "aggregator: bad signature");
        return "";
    }

    function aggregateSignatures(PackedUserOperation[] calldata userOps) external pure returns (bytes memory out) {
        for (uint256 i = 0; i < userOps.length; i++) {
            out = bytes.concat(out, userOps[i].signature);
        }
    }

    function _signedByOwner(PackedUserOperation calldata op, bytes calldata sig) internal view returns (bool) {
        bytes32 digest = LatchSignatures.ethSignedMessageHash(entryPoint.getUserOpHash(op));
        address signer = LatchSignatures.recover(digest, sig);
        return signer != address(0) && signer == LatchTestAggregatedAccount(payable(op.sender)).owner();
    }
}

// LatchTestAggregatedAccount leaves its signature check to its aggregator:
// validateUserOp names it and pays what the EntryPoint asks.
contract LatchTestAggregatedAccount {
    IEntryPoint public immutable entryPoint;
    address public immutable owner;
    address public immutable aggregator;

    constructor(IEntryPoint entryPoint_, address owner_, address aggregator_) {
        entryPoint = entryPoint_;
        owner = owner_;
        aggregator = aggregator_;
    }

    receive() external payable {}

    function validateUserOp(PackedUserOperation calldata, bytes32, uint256 missingAccountFunds)
        external
        returns (uint256 validationData)
    {
        require(msg.sender == address(entryPoint), "account: not from EntryPoint");
        if (missingAccountFunds > 0) {
            (bool ok,) = payable(msg.sender).call{value: missingAccountFunds}("");
            (ok);
        }
        return uint256(uint160(aggregator));
    }

    function execute(address dest, uint256 value, bytes calldata data) external {
        require(msg.sender == address(entryPoint), "account: not from EntryPoint");
        (bool ok, bytes memory result) = dest.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
    }
}
