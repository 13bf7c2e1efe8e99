// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IEntryPoint, PackedUserOperation} from "../LatchEntryPoint.sol";

// Test-only contracts for the bundler's ERC-7562 validation rules and
// reputation (internal/bundler); never deployed by latchd.
//
// LatchTestRulesAccount is an account that accepts any signature and, in
// validateUserOp, does what its rule says: nothing (RULE_NONE), or one
// thing ERC-7562 forbids an unstaked account, so a bundler that checks the
// rules refuses its operations and one that does not accepts them. armed
// (its own storage, which it may use) turns an honest account into a
// griefing one: from the block after arm(), its validation reverts, so an
// operation accepted before arm() passes a simulation against the latest
// block and reverts in the next one.
contract LatchTestRulesAccount {
    uint256 public constant RULE_NONE = 0;
    uint256 public constant RULE_TIMESTAMP = 1; // OP-011: reads block.timestamp
    uint256 public constant RULE_OTHER_STORAGE = 2; // STO-021: reads another account's storage (other.armed())
    uint256 public constant RULE_BALANCE = 3; // OP-080: reads other.balance without a stake
    uint256 public constant RULE_NO_CODE = 4; // OP-041: calls other, an address without code
    uint256 public constant RULE_OUT_OF_GAS = 5; // OP-020: a call of its own that runs out of gas
    uint256 public constant RULE_ENTRYPOINT_CALL = 6; // OP-054: calls the EntryPoint's getNonce
    uint256 public constant RULE_GAS = 7; // OP-012: reads gasleft() other than to pass it to a call
    uint256 public constant RULE_ORIGIN = 8; // OP-011: reads tx.origin

    IEntryPoint public immutable entryPoint;
    uint256 public immutable rule;
    address public immutable other;

    bool public armed;
    uint256 public armedBlock;

    constructor(IEntryPoint entryPoint_, uint256 rule_, address other_) {
        entryPoint = entryPoint_;
        rule = rule_;
        other = other_;
    }

    receive() external payable {}

    function validateUserOp(PackedUserOperation calldata, bytes32, uint256 missingAccountFunds)
        external
        returns (uint256 validationData)
    {
        require(msg.sender == address(entryPoint), "account: not from EntryPoint");
        if (rule == RULE_TIMESTAMP) {
            require(block.timestamp > 1, "account: before time");
        } else if (rule == RULE_OTHER_STORAGE) {
            require(!LatchTestRulesAccount(payable(other)).armed(), "account: other armed");
        } else if (rule == RULE_BALANCE) {
            require(other.balance < type(uint256).max, "account: rich");
        } else if (rule == RULE_NO_CODE) {
            (bool ok,) = other.staticcall("");
            require(ok, "account: call failed");
        } else if (rule == RULE_OUT_OF_GAS) {
            (bool ok,) = address(this).call{gas: 5000}(abi.encodeCall(this.burn, ()));
            (ok);
        } else if (rule == RULE_ENTRYPOINT_CALL) {
            require(entryPoint.getNonce(address(this), 0) < type(uint256).max, "account: nonce");
        } else if (rule == RULE_GAS) {
            require(gasleft() > 1000, "account: low gas");
        } else if (rule == RULE_ORIGIN) {
            require(tx.origin != address(0), "account: no origin");
        }
        if (armed) {
            require(block.number <= armedBlock, "account: armed");
        }
        if (missingAccountFunds > 0) {
            (bool ok,) = payable(msg.sender).call{value: missingAccountFunds}("");
            (ok);
        }
        return 0;
    }

    // arm makes validation revert from the next block on (anyone may call it: a test contract).
    function arm() external {
        armed = true;
        armedBlock = block.number;
    }

    // burn never returns: RULE_OUT_OF_GAS calls it with little gas.
    function burn() external {
        while (true) {
            armedBlock = armedBlock;
        }
    }
}

// LatchTestRulesFactory deploys LatchTestRulesAccounts (RULE_NONE) with
// CREATE2 and, by its rule, breaks one of ERC-7562's rules for factories
// while doing so. stake locks a stake in the EntryPoint, which allows
// RULE_OWN_STORAGE (STO-031) and nothing else here.
contract LatchTestRulesFactory {
    uint256 public constant RULE_NONE = 0;
    uint256 public constant RULE_OWN_STORAGE = 1; // STO-031: counts its deployments in its own storage
    uint256 public constant RULE_TWO_CREATE2 = 2; // OP-031: deploys a second account
    uint256 public constant RULE_TIMESTAMP = 3; // OP-011: reads block.timestamp

    IEntryPoint public immutable entryPoint;
    uint256 public immutable rule;
    uint256 public deployed;

    constructor(IEntryPoint entryPoint_, uint256 rule_) {
        entryPoint = entryPoint_;
        rule = rule_;
    }

    function createAccount(uint256 salt) external returns (address) {
        address addr = getAddress(salt);
        if (addr.code.length > 0) return addr;
        if (rule == RULE_OWN_STORAGE) {
            deployed += 1;
        } else if (rule == RULE_TWO_CREATE2) {
            new LatchTestRulesAccount{salt: bytes32(salt + 1)}(entryPoint, 0, address(0));
        } else if (rule == RULE_TIMESTAMP) {
            require(block.timestamp > 1, "factory: before time");
        }
        return address(new LatchTestRulesAccount{salt: bytes32(salt)}(entryPoint, 0, address(0)));
    }

    function getAddress(uint256 salt) public view returns (address) {
        bytes32 codeHash = keccak256(
            abi.encodePacked(type(LatchTestRulesAccount).creationCode, abi.encode(entryPoint, uint256(0), address(0)))
        );
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), bytes32(salt), codeHash)))));
    }

    function stake(uint32 unstakeDelaySec) external payable {
        entryPoint.addStake{value: msg.value}(unstakeDelaySec);
    }
}
