// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

// Latch's ERC-4337 v0.7 EntryPoint, written from the ERC's text. It keeps the
// v0.7 interface (PackedUserOperation, handleOps, getUserOpHash, getNonce with
// 192-bit keys, deposits, getSenderAddress, the events and the FailedOp
// reasons) so clients built for the canonical EntryPoint v0.7 work with it.
// It also keeps the stake manager (addStake, unlockStake, withdrawStake,
// getDepositInfo) and signature aggregation (handleAggregatedOps): an account
// whose validateUserOp names an aggregator is accepted only in that
// aggregator's group, whose aggregate signature the aggregator checked.

// PackedUserOperation is ERC-4337 v0.7's user operation. accountGasLimits is
// verificationGasLimit (high 128 bits) | callGasLimit (low 128 bits); gasFees
// is maxPriorityFeePerGas (high) | maxFeePerGas (low); paymasterAndData is
// paymaster (20 bytes) | paymasterVerificationGasLimit (16) |
// paymasterPostOpGasLimit (16) | paymaster data.
struct PackedUserOperation {
    address sender;
    uint256 nonce;
    bytes initCode;
    bytes callData;
    bytes32 accountGasLimits;
    uint256 preVerificationGas;
    bytes32 gasFees;
    bytes paymasterAndData;
    bytes signature;
}

// IAccount is what the EntryPoint calls to validate an operation. The account
// pays missingAccountFunds to the EntryPoint (msg.sender) and returns
// validationData: aggregator or 1 for a bad signature (low 160 bits) |
// validUntil (48 bits, 0 = no end) | validAfter (48 bits).
interface IAccount {
    function validateUserOp(PackedUserOperation calldata userOp, bytes32 userOpHash, uint256 missingAccountFunds)
        external
        returns (uint256 validationData);
}

// PostOpMode tells a paymaster's postOp how the operation ended.
enum PostOpMode {
    opSucceeded,
    opReverted,
    postOpReverted
}

// IPaymaster is a paymaster as the EntryPoint calls it.
interface IPaymaster {
    function validatePaymasterUserOp(PackedUserOperation calldata userOp, bytes32 userOpHash, uint256 maxCost)
        external
        returns (bytes memory context, uint256 validationData);

    function postOp(PostOpMode mode, bytes calldata context, uint256 actualGasCost, uint256 actualUserOpFeePerGas)
        external;
}

// IAggregator checks one signature that stands for the signatures of several
// operations (e.g. a BLS aggregate). validateSignatures reverts when the
// aggregate does not verify; validateUserOpSignature checks one operation
// (for a bundler's mempool) and returns the signature field to put in it
// while it is aggregated; aggregateSignatures makes the aggregate.
interface IAggregator {
    function validateSignatures(PackedUserOperation[] calldata userOps, bytes calldata signature) external view;

    function validateUserOpSignature(PackedUserOperation calldata userOp)
        external
        view
        returns (bytes memory sigForUserOp);

    function aggregateSignatures(PackedUserOperation[] calldata userOps)
        external
        view
        returns (bytes memory aggregatedSignature);
}

// UserOpsPerAggregator is one group of handleAggregatedOps: operations whose
// accounts name aggregator, and the aggregate signature of all of them.
struct UserOpsPerAggregator {
    PackedUserOperation[] userOps;
    IAggregator aggregator;
    bytes signature;
}

// DepositInfo is an entity's deposit (spent on gas) and stake (locked,
// never spent; ERC-7562's reputation rules ask for it). Its first word is
// the deposit, so the layout of the deposits mapping is the canonical
// EntryPoint v0.7's: deposit at the entry's slot, the stake fields packed
// in the next.
struct DepositInfo {
    uint256 deposit;
    bool staked;
    uint112 stake;
    uint32 unstakeDelaySec;
    uint48 withdrawTime;
}

// IEntryPoint is the part of the EntryPoint that accounts and paymasters use.
interface IEntryPoint {
    function depositTo(address account) external payable;
    function balanceOf(address account) external view returns (uint256);
    function withdrawTo(address payable withdrawAddress, uint256 withdrawAmount) external;
    function addStake(uint32 unstakeDelaySec) external payable;
    function unlockStake() external;
    function withdrawStake(address payable withdrawAddress) external;
    function getDepositInfo(address account) external view returns (DepositInfo memory info);
    function getNonce(address sender, uint192 key) external view returns (uint256);
    function getUserOpHash(PackedUserOperation calldata userOp) external view returns (bytes32);
}

// LatchSenderCreator runs an operation's initCode (factory address followed
// by the call data for it) from an address that is not the EntryPoint, so a
// factory call can never act with the EntryPoint's authority.
contract LatchSenderCreator {
    function createSender(bytes calldata initCode) external returns (address sender) {
        address factory = address(bytes20(initCode[0:20]));
        bytes memory data = initCode[20:];
        bool ok;
        assembly {
            mstore(0, 0)
            ok := call(gas(), factory, 0, add(data, 0x20), mload(data), 0, 32)
            sender := mload(0)
        }
        if (!ok) sender = address(0);
    }
}

contract LatchEntryPoint is IEntryPoint {
    event UserOperationEvent(
        bytes32 indexed userOpHash,
        address indexed sender,
        address indexed paymaster,
        uint256 nonce,
        bool success,
        uint256 actualGasCost,
        uint256 actualGasUsed
    );
    event AccountDeployed(bytes32 indexed userOpHash, address indexed sender, address factory, address paymaster);
    event UserOperationRevertReason(bytes32 indexed userOpHash, address indexed sender, uint256 nonce, bytes revertReason);
    event PostOpRevertReason(bytes32 indexed userOpHash, address indexed sender, uint256 nonce, bytes revertReason);
    event BeforeExecution();
    event Deposited(address indexed account, uint256 totalDeposit);
    event Withdrawn(address indexed account, address withdrawAddress, uint256 amount);
    event StakeLocked(address indexed account, uint256 totalStaked, uint256 unstakeDelaySec);
    event StakeUnlocked(address indexed account, uint256 withdrawTime);
    event StakeWithdrawn(address indexed account, address withdrawAddress, uint256 amount);
    // SignatureAggregatorChanged precedes the execution of each group of
    // handleAggregatedOps (and address(0) follows the last), so the
    // UserOperationEvents between two of them belong to that aggregator.
    event SignatureAggregatorChanged(address indexed aggregator);

    error FailedOp(uint256 opIndex, string reason);
    error FailedOpWithRevert(uint256 opIndex, string reason, bytes inner);
    error PostOpReverted(bytes returnData);
    error SenderAddressResult(address sender);
    error SignatureValidationFailed(address aggregator);

    // MemoryUserOp is an operation with its packed fields taken apart.
    struct MemoryUserOp {
        address sender;
        uint256 nonce;
        uint256 verificationGasLimit;
        uint256 callGasLimit;
        uint256 paymasterVerificationGasLimit;
        uint256 paymasterPostOpGasLimit;
        uint256 preVerificationGas;
        address paymaster;
        uint256 maxFeePerGas;
        uint256 maxPriorityFeePerGas;
    }

    // UserOpInfo is what validation hands to execution.
    struct UserOpInfo {
        MemoryUserOp mUserOp;
        bytes32 userOpHash;
        uint256 prefund;
        uint256 preOpGas;
    }

    // The share of unused execution gas (callGasLimit + paymasterPostOpGasLimit)
    // an operation pays for anyway, so over-asking costs the account, not the bundler.
    uint256 private constant UNUSED_GAS_PENALTY_PERCENT = 10;
    // Gas innerHandleOp needs beyond the operation's own limits.
    uint256 private constant INNER_GAS_OVERHEAD = 10000;
    // Revert data kept from a failed call; the rest is dropped so a
    // reverting account cannot make the bundle pay for copying it.
    uint256 private constant REVERT_REASON_MAX_LEN = 2048;

    LatchSenderCreator private immutable creator = new LatchSenderCreator();

    // deposits[entity]: slot 0, as in the canonical EntryPoint (latchd's
    // bundler relies on it, see LatchEntryPointSimulations).
    mapping(address => DepositInfo) private deposits;
    // nonceSequenceNumber[sender][key] is the next sequence number of key.
    mapping(address => mapping(uint192 => uint256)) public nonceSequenceNumber;
    uint256 private locked;

    modifier nonReentrant() {
        require(locked == 0, "ReentrancyGuard: reentrant call");
        locked = 1;
        _;
        locked = 0;
    }

    receive() external payable {
        depositTo(msg.sender);
    }

    // ---- deposits ----

    function depositTo(address account) public payable {
        uint256 total = deposits[account].deposit + msg.value;
        deposits[account].deposit = total;
        emit Deposited(account, total);
    }

    function balanceOf(address account) external view returns (uint256) {
        return deposits[account].deposit;
    }

    function getDepositInfo(address account) external view returns (DepositInfo memory info) {
        return deposits[account];
    }

    function withdrawTo(address payable withdrawAddress, uint256 withdrawAmount) external {
        uint256 have = deposits[msg.sender].deposit;
        require(withdrawAmount <= have, "Withdraw amount too large");
        deposits[msg.sender].deposit = have - withdrawAmount;
        emit Withdrawn(msg.sender, withdrawAddress, withdrawAmount);
        (bool ok,) = withdrawAddress.call{value: withdrawAmount}("");
        require(ok, "failed to withdraw");
    }

    // ---- stakes ----

    // addStake locks msg.value more as the caller's stake, with an unstake
    // delay that may grow but not shrink. Adding to a stake being unlocked
    // locks it again.
    function addStake(uint32 unstakeDelaySec) external payable {
        DepositInfo storage info = deposits[msg.sender];
        require(unstakeDelaySec > 0, "stake: the unstake delay must be above zero");
        require(unstakeDelaySec >= info.unstakeDelaySec, "stake: the unstake delay cannot be shortened");
        uint256 total = uint256(info.stake) + msg.value;
        require(total > 0, "stake: no stake sent");
        require(total <= type(uint112).max, "stake: too large");
        info.stake = uint112(total);
        info.staked = true;
        info.unstakeDelaySec = unstakeDelaySec;
        info.withdrawTime = 0;
        emit StakeLocked(msg.sender, total, unstakeDelaySec);
    }

    // unlockStake starts the unstake delay; withdrawStake pays out after it.
    function unlockStake() external {
        DepositInfo storage info = deposits[msg.sender];
        require(info.unstakeDelaySec != 0, "stake: nothing staked");
        require(info.staked, "stake: already unlocking");
        uint48 withdrawTime = uint48(block.timestamp) + info.unstakeDelaySec;
        info.withdrawTime = withdrawTime;
        info.staked = false;
        emit StakeUnlocked(msg.sender, withdrawTime);
    }

    // withdrawStake sends the whole unlocked stake to withdrawAddress once
    // the unstake delay has passed.
    function withdrawStake(address payable withdrawAddress) external {
        DepositInfo storage info = deposits[msg.sender];
        uint256 amount = info.stake;
        require(amount > 0, "stake: nothing to withdraw");
        require(info.withdrawTime > 0, "stake: call unlockStake first");
        require(info.withdrawTime <= block.timestamp, "stake: the unstake delay has not passed");
        info.unstakeDelaySec = 0;
        info.withdrawTime = 0;
        info.stake = 0;
        emit StakeWithdrawn(msg.sender, withdrawAddress, amount);
        (bool ok,) = withdrawAddress.call{value: amount}("");
        require(ok, "stake: failed to withdraw");
    }

    // ---- nonces ----

    // getNonce is the next nonce of sender under key: key in the high 192
    // bits, the key's sequence number in the low 64.
    function getNonce(address sender, uint192 key) external view returns (uint256) {
        return nonceSequenceNumber[sender][key] | (uint256(key) << 64);
    }

    // incrementNonce lets an account skip a sequence number of one of its keys.
    function incrementNonce(uint192 key) external {
        nonceSequenceNumber[msg.sender][key]++;
    }

    function _validateAndUpdateNonce(address sender, uint256 nonce) internal returns (bool) {
        uint192 key = uint192(nonce >> 64);
        uint64 seq = uint64(nonce);
        return nonceSequenceNumber[sender][key]++ == seq;
    }

    // ---- hashing and addresses ----

    // getUserOpHash is keccak256(abi.encode(keccak256(packed op without its
    // signature, dynamic fields hashed), entryPoint, chainid)).
    function getUserOpHash(PackedUserOperation calldata userOp) public view returns (bytes32) {
        bytes32 inner = keccak256(
            abi.encode(
                userOp.sender,
                userOp.nonce,
                keccak256(userOp.initCode),
                keccak256(userOp.callData),
                userOp.accountGasLimits,
                userOp.preVerificationGas,
                userOp.gasFees,
                keccak256(userOp.paymasterAndData)
            )
        );
        return keccak256(abi.encode(inner, address(this), block.chainid));
    }

    // getSenderAddress always reverts with SenderAddressResult(the address
    // initCode creates); called with eth_call it computes a counterfactual address.
    function getSenderAddress(bytes calldata initCode) external {
        revert SenderAddressResult(_senderCreator().createSender(initCode));
    }

    function senderCreator() external view returns (address) {
        return address(_senderCreator());
    }

    function _senderCreator() internal view virtual returns (LatchSenderCreator) {
        return creator;
    }

    // ---- handleOps ----

    // handleOps validates every operation (reverting with FailedOp on the
    // first that fails, so a bundler can drop it and retry), then executes
    // them and pays the collected fees to beneficiary.
    function handleOps(PackedUserOperation[] calldata ops, address payable beneficiary) external nonReentrant {
        uint256 n = ops.length;
        UserOpInfo[] memory infos = new UserOpInfo[](n);
        bytes[] memory contexts = new bytes[](n);
        for (uint256 i = 0; i < n; i++) {
            (uint256 accountData, uint256 paymasterData) = _validatePrepayment(i, ops[i], infos[i], contexts);
            _checkValidationData(i, accountData, paymasterData, address(0));
        }
        emit BeforeExecution();
        uint256 collected = 0;
        for (uint256 i = 0; i < n; i++) {
            collected += _executeUserOp(i, ops[i], infos[i], contexts[i]);
        }
        _pay(beneficiary, collected);
    }

    // handleAggregatedOps is handleOps for groups of operations whose
    // accounts use a signature aggregator: each group's aggregator checks
    // its aggregate signature first (SignatureValidationFailed if not),
    // then every operation is validated, where its account must name its
    // group's aggregator (AA24 otherwise), and executed. Operation indexes in
    // FailedOp count across the groups. A group with aggregator address(0)
    // holds operations without one.
    function handleAggregatedOps(UserOpsPerAggregator[] calldata opsPerAggregator, address payable beneficiary)
        external
        nonReentrant
    {
        uint256 total = 0;
        for (uint256 g = 0; g < opsPerAggregator.length; g++) {
            IAggregator aggregator = opsPerAggregator[g].aggregator;
            // address(1) is SIG_VALIDATION_FAILED, never an aggregator.
            require(address(aggregator) != address(1), "AA96 invalid aggregator");
            if (address(aggregator) != address(0)) {
                try aggregator.validateSignatures(opsPerAggregator[g].userOps, opsPerAggregator[g].signature) {}
                catch {
                    revert SignatureValidationFailed(address(aggregator));
                }
            }
            total += opsPerAggregator[g].userOps.length;
        }
        UserOpInfo[] memory infos = new UserOpInfo[](total);
        bytes[] memory contexts = new bytes[](total);
        uint256 index = 0;
        for (uint256 g = 0; g < opsPerAggregator.length; g++) {
            PackedUserOperation[] calldata ops = opsPerAggregator[g].userOps;
            address aggregator = address(opsPerAggregator[g].aggregator);
            for (uint256 i = 0; i < ops.length; i++) {
                (uint256 accountData, uint256 paymasterData) = _validatePrepayment(index, ops[i], infos[index], contexts);
                _checkValidationData(index, accountData, paymasterData, aggregator);
                index++;
            }
        }
        emit BeforeExecution();
        uint256 collected = 0;
        index = 0;
        for (uint256 g = 0; g < opsPerAggregator.length; g++) {
            PackedUserOperation[] calldata ops = opsPerAggregator[g].userOps;
            emit SignatureAggregatorChanged(address(opsPerAggregator[g].aggregator));
            for (uint256 i = 0; i < ops.length; i++) {
                collected += _executeUserOp(index, ops[i], infos[index], contexts[index]);
                index++;
            }
        }
        emit SignatureAggregatorChanged(address(0));
        _pay(beneficiary, collected);
    }

    // _pay sends a bundle's collected fees to its beneficiary.
    function _pay(address payable beneficiary, uint256 amount) internal {
        if (beneficiary == address(0)) revert FailedOp(0, "AA90 invalid beneficiary");
        (bool ok,) = beneficiary.call{value: amount}("");
        if (!ok) revert FailedOp(0, "AA91 failed send to beneficiary");
    }

    function _unpack(PackedUserOperation calldata op, MemoryUserOp memory m) internal pure {
        m.sender = op.sender;
        m.nonce = op.nonce;
        m.verificationGasLimit = uint128(bytes16(op.accountGasLimits));
        m.callGasLimit = uint128(uint256(op.accountGasLimits));
        m.preVerificationGas = op.preVerificationGas;
        m.maxPriorityFeePerGas = uint128(bytes16(op.gasFees));
        m.maxFeePerGas = uint128(uint256(op.gasFees));
        bytes calldata pmd = op.paymasterAndData;
        if (pmd.length > 0) {
            require(pmd.length >= 52, "AA93 invalid paymasterAndData");
            m.paymaster = address(bytes20(pmd[0:20]));
            m.paymasterVerificationGasLimit = uint128(bytes16(pmd[20:36]));
            m.paymasterPostOpGasLimit = uint128(bytes16(pmd[36:52]));
        } else {
            m.paymaster = address(0);
            m.paymasterVerificationGasLimit = 0;
            m.paymasterPostOpGasLimit = 0;
        }
    }

    // _requiredPrefund is the most the operation can cost: every gas limit at maxFeePerGas.
    function _requiredPrefund(MemoryUserOp memory m) internal pure returns (uint256) {
        uint256 gas = m.verificationGasLimit + m.callGasLimit + m.paymasterVerificationGasLimit
            + m.paymasterPostOpGasLimit + m.preVerificationGas;
        return gas * m.maxFeePerGas;
    }

    function _validatePrepayment(
        uint256 opIndex,
        PackedUserOperation calldata op,
        UserOpInfo memory info,
        bytes[] memory contexts
    ) internal returns (uint256 accountData, uint256 paymasterData) {
        uint256 preGas = gasleft();
        MemoryUserOp memory m = info.mUserOp;
        _unpack(op, m);
        info.userOpHash = getUserOpHash(op);
        uint256 all = m.preVerificationGas | m.verificationGasLimit | m.callGasLimit
            | m.paymasterVerificationGasLimit | m.paymasterPostOpGasLimit | m.maxFeePerGas | m.maxPriorityFeePerGas;
        if (all > type(uint120).max) revert FailedOp(opIndex, "AA94 gas values overflow");
        uint256 prefund = _requiredPrefund(m);
        info.prefund = prefund;

        accountData = _validateAccountPrepayment(opIndex, op, info, prefund);
        if (!_validateAndUpdateNonce(m.sender, m.nonce)) revert FailedOp(opIndex, "AA25 invalid account nonce");
        if (preGas - gasleft() > m.verificationGasLimit) revert FailedOp(opIndex, "AA26 over verificationGasLimit");
        if (m.paymaster != address(0)) {
            (contexts[opIndex], paymasterData) = _validatePaymasterPrepayment(opIndex, op, info, prefund);
        }
        info.preOpGas = preGas - gasleft() + m.preVerificationGas;
    }

    function _createSenderIfNeeded(uint256 opIndex, UserOpInfo memory info, bytes calldata initCode) internal {
        if (initCode.length == 0) return;
        address sender = info.mUserOp.sender;
        if (sender.code.length != 0) revert FailedOp(opIndex, "AA10 sender already constructed");
        if (initCode.length < 20) revert FailedOp(opIndex, "AA99 initCode too small");
        address created;
        try _senderCreator().createSender{gas: info.mUserOp.verificationGasLimit}(initCode) returns (address s) {
            created = s;
        } catch {
            created = address(0);
        }
        if (created == address(0)) revert FailedOp(opIndex, "AA13 initCode failed or OOG");
        if (created != sender) revert FailedOp(opIndex, "AA14 initCode must return sender");
        if (sender.code.length == 0) revert FailedOp(opIndex, "AA15 initCode must create sender");
        emit AccountDeployed(info.userOpHash, sender, address(bytes20(initCode[0:20])), info.mUserOp.paymaster);
    }

    function _validateAccountPrepayment(
        uint256 opIndex,
        PackedUserOperation calldata op,
        UserOpInfo memory info,
        uint256 prefund
    ) internal returns (uint256 validationData) {
        MemoryUserOp memory m = info.mUserOp;
        _createSenderIfNeeded(opIndex, info, op.initCode);
        address sender = m.sender;
        if (sender.code.length == 0) revert FailedOp(opIndex, "AA20 account not deployed");
        uint256 missing = 0;
        if (m.paymaster == address(0)) {
            uint256 have = deposits[sender].deposit;
            missing = have >= prefund ? 0 : prefund - have;
        }
        try IAccount(sender).validateUserOp{gas: m.verificationGasLimit}(op, info.userOpHash, missing) returns (
            uint256 data
        ) {
            validationData = data;
        } catch {
            revert FailedOpWithRevert(opIndex, "AA23 reverted", _returnData(REVERT_REASON_MAX_LEN));
        }
        if (m.paymaster == address(0)) {
            uint256 have = deposits[sender].deposit;
            if (prefund > have) revert FailedOp(opIndex, "AA21 didn't pay prefund");
            deposits[sender].deposit = have - prefund;
        }
    }

    function _validatePaymasterPrepayment(
        uint256 opIndex,
        PackedUserOperation calldata op,
        UserOpInfo memory info,
        uint256 prefund
    ) internal returns (bytes memory context, uint256 validationData) {
        MemoryUserOp memory m = info.mUserOp;
        address paymaster = m.paymaster;
        if (paymaster.code.length == 0) revert FailedOp(opIndex, "AA30 paymaster not deployed");
        uint256 have = deposits[paymaster].deposit;
        if (have < prefund) revert FailedOp(opIndex, "AA31 paymaster deposit too low");
        deposits[paymaster].deposit = have - prefund;
        uint256 preGas = gasleft();
        try IPaymaster(paymaster).validatePaymasterUserOp{gas: m.paymasterVerificationGasLimit}(
            op, info.userOpHash, prefund
        ) returns (bytes memory ctx, uint256 data) {
            context = ctx;
            validationData = data;
        } catch {
            revert FailedOpWithRevert(opIndex, "AA33 reverted", _returnData(REVERT_REASON_MAX_LEN));
        }
        if (preGas - gasleft() > m.paymasterVerificationGasLimit) {
            revert FailedOp(opIndex, "AA36 over paymasterVerificationGasLimit");
        }
    }

    // _checkValidationData refuses a signature failure, an account whose
    // aggregator is not expectedAggregator (the operation's group's in
    // handleAggregatedOps, none in handleOps), a paymaster that names an
    // aggregator, and a time range that excludes this block.
    function _checkValidationData(uint256 opIndex, uint256 accountData, uint256 paymasterData, address expectedAggregator)
        internal
        view
    {
        (address aggregator, bool outOfRange) = _parseValidationData(accountData);
        if (aggregator != expectedAggregator) revert FailedOp(opIndex, "AA24 signature error");
        if (outOfRange) revert FailedOp(opIndex, "AA22 expired or not due");
        (aggregator, outOfRange) = _parseValidationData(paymasterData);
        if (aggregator != address(0)) revert FailedOp(opIndex, "AA34 signature error");
        if (outOfRange) revert FailedOp(opIndex, "AA32 paymaster expired or not due");
    }

    function _parseValidationData(uint256 data) internal view returns (address aggregator, bool outOfRange) {
        aggregator = address(uint160(data));
        uint48 validUntil = uint48(data >> 160);
        if (validUntil == 0) validUntil = type(uint48).max;
        uint48 validAfter = uint48(data >> 208);
        outOfRange = block.timestamp > validUntil || block.timestamp < validAfter;
    }

    // ---- execution ----

    function _executeUserOp(uint256 opIndex, PackedUserOperation calldata op, UserOpInfo memory info, bytes memory context)
        internal
        returns (uint256 collected)
    {
        uint256 preGas = gasleft();
        MemoryUserOp memory m = info.mUserOp;
        // The call and postOp must get the gas the operation asked for; if
        // not, the bundler under-provisioned the transaction and the whole
        // bundle reverts rather than the account paying for a starved call.
        if ((gasleft() * 63) / 64 < m.callGasLimit + m.paymasterPostOpGasLimit + INNER_GAS_OVERHEAD) {
            revert FailedOp(opIndex, "AA95 out of gas");
        }
        try this.innerHandleOp(op.callData, info, context) returns (uint256 actualGasCost) {
            collected = actualGasCost;
        } catch {
            // postOp reverted, which undid the call too: the operation is
            // charged, and postOp is not called again.
            emit PostOpRevertReason(info.userOpHash, m.sender, m.nonce, _returnData(REVERT_REASON_MAX_LEN));
            uint256 actualGas = preGas - gasleft() + info.preOpGas;
            collected = _postExecution(PostOpMode.postOpReverted, info, context, actualGas);
        }
    }

    // innerHandleOp runs an operation's call and its paymaster's postOp; it
    // is external so that a reverting postOp undoes the call as well. Only
    // the EntryPoint itself may call it.
    function innerHandleOp(bytes calldata callData, UserOpInfo memory info, bytes calldata context)
        external
        returns (uint256 actualGasCost)
    {
        uint256 preGas = gasleft();
        require(msg.sender == address(this), "AA92 internal call only");
        MemoryUserOp memory m = info.mUserOp;
        PostOpMode mode = PostOpMode.opSucceeded;
        if (callData.length > 0) {
            address sender = m.sender;
            uint256 callGas = m.callGasLimit;
            bytes memory data = callData;
            bool ok;
            assembly {
                ok := call(callGas, sender, 0, add(data, 0x20), mload(data), 0, 0)
            }
            if (!ok) {
                bytes memory reason = _returnData(REVERT_REASON_MAX_LEN);
                if (reason.length > 0) emit UserOperationRevertReason(info.userOpHash, m.sender, m.nonce, reason);
                mode = PostOpMode.opReverted;
            }
        }
        uint256 actualGas = preGas - gasleft() + info.preOpGas;
        return _postExecution(mode, info, context, actualGas);
    }

    // _postExecution calls the paymaster's postOp (unless it already
    // reverted), charges the operation for the gas it used plus the penalty
    // on unused execution gas, refunds the rest of the prefund to whoever
    // paid it and emits UserOperationEvent. The charge never exceeds the
    // prefund.
    function _postExecution(PostOpMode mode, UserOpInfo memory info, bytes memory context, uint256 actualGas)
        internal
        returns (uint256 actualGasCost)
    {
        uint256 preGas = gasleft();
        MemoryUserOp memory m = info.mUserOp;
        uint256 gasPrice = _gasPrice(m);
        if (m.paymaster != address(0) && context.length > 0 && mode != PostOpMode.postOpReverted) {
            try IPaymaster(m.paymaster).postOp{gas: m.paymasterPostOpGasLimit}(
                mode, context, actualGas * gasPrice, gasPrice
            ) {} catch {
                revert PostOpReverted(_returnData(REVERT_REASON_MAX_LEN));
            }
        }
        actualGas += preGas - gasleft();
        uint256 executionGas = actualGas > info.preOpGas ? actualGas - info.preOpGas : 0;
        uint256 executionLimit = m.callGasLimit + m.paymasterPostOpGasLimit;
        if (executionLimit > executionGas) {
            actualGas += ((executionLimit - executionGas) * UNUSED_GAS_PENALTY_PERCENT) / 100;
        }
        actualGasCost = actualGas * gasPrice;
        if (actualGasCost > info.prefund) actualGasCost = info.prefund;
        _settle(info, mode == PostOpMode.opSucceeded, actualGasCost, actualGas);
    }

    // _settle refunds what is left of the prefund to whoever paid it and
    // emits UserOperationEvent.
    function _settle(UserOpInfo memory info, bool success, uint256 actualGasCost, uint256 actualGas) internal {
        MemoryUserOp memory m = info.mUserOp;
        address refundTo = m.paymaster == address(0) ? m.sender : m.paymaster;
        deposits[refundTo].deposit += info.prefund - actualGasCost;
        emit UserOperationEvent(info.userOpHash, m.sender, m.paymaster, m.nonce, success, actualGasCost, actualGas);
    }

    function _gasPrice(MemoryUserOp memory m) internal view returns (uint256) {
        if (m.maxFeePerGas == m.maxPriorityFeePerGas) return m.maxFeePerGas; // legacy-style, no BASEFEE needed
        uint256 price = m.maxPriorityFeePerGas + block.basefee;
        return price < m.maxFeePerGas ? price : m.maxFeePerGas;
    }

    // _returnData copies at most maxLen bytes of the last call's return data.
    function _returnData(uint256 maxLen) internal pure returns (bytes memory data) {
        assembly {
            let len := returndatasize()
            if gt(len, maxLen) { len := maxLen }
            data := mload(0x40)
            mstore(data, len)
            returndatacopy(add(data, 0x20), 0, len)
            mstore(0x40, add(add(data, 0x20), and(add(len, 31), not(31))))
        }
    }
}

// LatchEntryPointSimulations is never deployed: latchd's bundler puts its
// runtime code at the EntryPoint's address with an eth_call state override,
// so the simulation sees the EntryPoint's real deposits and nonces (the
// storage layout is the EntryPoint's, inherited: deposits at slot 0,
// nonceSequenceNumber at slot 1, as in the canonical EntryPoint v0.7; the
// bundler overrides a nonce slot to simulate an operation that follows
// pending ones, and a test fails if the layout moves).
contract LatchEntryPointSimulations is LatchEntryPoint {
    // ValidationResult is what validating one operation produced.
    struct ValidationResult {
        uint256 preOpGas;
        uint256 prefund;
        uint256 accountValidationData;
        uint256 paymasterValidationData;
        bytes paymasterContext;
    }

    // ExecutionResult adds what executing the operation's call cost.
    struct ExecutionResult {
        uint256 preOpGas;
        uint256 callGasUsed;
        uint256 postOpGasUsed;
        bool targetSuccess;
        bytes targetResult;
        uint256 accountValidationData;
        uint256 paymasterValidationData;
    }

    // simulateValidation validates op as handleOps would (reverting with
    // FailedOp on the same failures) and returns the validation data
    // without checking it, so the caller can tell a bad signature from a
    // time range.
    function simulateValidation(PackedUserOperation calldata op) external returns (ValidationResult memory r) {
        return _simulateValidation(op);
    }

    // simulateValidationAfterDeploy is simulateValidation for an operation
    // whose sender an earlier operation, still waiting for its bundle,
    // deploys: that operation's initCode runs first (when the sender has no
    // code yet), so the account exists, constructor storage and all.
    function simulateValidationAfterDeploy(bytes calldata initCode, PackedUserOperation calldata op)
        external
        returns (ValidationResult memory r)
    {
        _deployFirst(initCode, op.sender);
        return _simulateValidation(op);
    }

    // simulateHandleOpAfterDeploy is simulateHandleOp likewise.
    function simulateHandleOpAfterDeploy(bytes calldata initCode, PackedUserOperation calldata op)
        external
        returns (ExecutionResult memory r)
    {
        _deployFirst(initCode, op.sender);
        return _simulateHandleOp(op);
    }

    function _deployFirst(bytes calldata initCode, address sender) internal {
        if (sender.code.length != 0) return;
        if (initCode.length < 20 || _senderCreator().createSender(initCode) != sender || sender.code.length == 0) {
            revert FailedOp(0, "AA13 initCode failed or OOG");
        }
    }

    function _simulateValidation(PackedUserOperation calldata op) internal returns (ValidationResult memory r) {
        UserOpInfo memory info;
        bytes[] memory contexts = new bytes[](1);
        (r.accountValidationData, r.paymasterValidationData) = _validatePrepayment(0, op, info, contexts);
        r.preOpGas = info.preOpGas;
        r.prefund = info.prefund;
        r.paymasterContext = contexts[0];
    }

    // simulateHandleOp validates op, then runs its call and postOp with all
    // the gas left and measures them.
    function simulateHandleOp(PackedUserOperation calldata op) external returns (ExecutionResult memory r) {
        return _simulateHandleOp(op);
    }

    function _simulateHandleOp(PackedUserOperation calldata op) internal returns (ExecutionResult memory r) {
        UserOpInfo memory info;
        bytes[] memory contexts = new bytes[](1);
        (r.accountValidationData, r.paymasterValidationData) = _validatePrepayment(0, op, info, contexts);
        r.preOpGas = info.preOpGas;
        uint256 g = gasleft();
        (r.targetSuccess, r.targetResult) = info.mUserOp.sender.call(op.callData);
        r.callGasUsed = g - gasleft();
        if (info.mUserOp.paymaster != address(0) && contexts[0].length > 0) {
            g = gasleft();
            IPaymaster(info.mUserOp.paymaster).postOp(
                r.targetSuccess ? PostOpMode.opSucceeded : PostOpMode.opReverted, contexts[0], 0, 0
            );
            r.postOpGasUsed = g - gasleft();
        }
    }

    // The real EntryPoint created its LatchSenderCreator with its first
    // CREATE (nonce 1); this code runs at the EntryPoint's address, so it
    // finds it there rather than at the address baked into its immutable.
    function _senderCreator() internal view override returns (LatchSenderCreator) {
        return LatchSenderCreator(
            address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xd6), bytes1(0x94), address(this), bytes1(0x01))))))
        );
    }
}
