// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title DevFarcasterIdRegistry
/// @notice A development stand-in for Farcaster's ID registry on the latchd dev
/// chains, written for Latch: each Farcaster id (fid) has one custody address,
/// and an address holds at most one fid. It answers the two reads latchd's
/// Sign In With Farcaster check uses, with the real registry's signatures:
/// custodyOf(fid) and idOf(address). Only the deployer registers ids (latchd
/// dev registers its test accounts at start); fids count up from 1.
contract DevFarcasterIdRegistry {
    address public immutable owner;
    /// @notice The last fid registered (0: none yet).
    uint256 public idCounter;

    mapping(uint256 => address) public custodyOf;
    mapping(address => uint256) public idOf;

    event Register(address indexed to, uint256 indexed id, address recovery);

    error Unauthorized();
    error HasId();
    error ZeroAddress();

    constructor() {
        owner = msg.sender;
    }

    /// @notice Registers the next fid to custody; custody must hold none yet.
    function register(address custody) external returns (uint256 fid) {
        if (msg.sender != owner) revert Unauthorized();
        if (custody == address(0)) revert ZeroAddress();
        if (idOf[custody] != 0) revert HasId();
        fid = ++idCounter;
        custodyOf[fid] = custody;
        idOf[custody] = fid;
        emit Register(custody, fid, address(0));
    }
}
