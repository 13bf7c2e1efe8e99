// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title DevPriceFeed
/// @notice A USD price feed for the latchd dev chains with the read interface of
/// Chainlink's AggregatorV3 (decimals, description, version, latestRoundData,
/// getRoundData) plus the legacy latestAnswer/latestTimestamp/latestRound, so
/// the code that reads real Chainlink feeds on public networks reads this one
/// unchanged. The deployer owns it and sets the answer (POST /dev/price); each
/// update is a new round.
contract DevPriceFeed {
    uint8 public immutable decimals;
    string public description;
    address public immutable owner;
    uint80 public latestRound;

    struct Round {
        int256 answer;
        uint64 startedAt;
        uint64 updatedAt;
    }

    mapping(uint80 => Round) private rounds;

    // The events of Chainlink's AggregatorInterface, so feed watchers work too.
    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);
    event NewRound(uint256 indexed roundId, address indexed startedBy, uint256 startedAt);

    constructor(uint8 decimals_, string memory description_, int256 initialAnswer) {
        decimals = decimals_;
        description = description_;
        owner = msg.sender;
        _update(initialAnswer);
    }

    /// @notice The AggregatorV3 interface version this feed implements.
    function version() external pure returns (uint256) {
        return 4;
    }

    /// @notice Starts a new round with `answer` (scaled by 10^decimals). Only the owner may.
    function updateAnswer(int256 answer) external {
        require(msg.sender == owner, "DevPriceFeed: caller is not the owner");
        _update(answer);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return getRoundData(latestRound);
    }

    function getRoundData(uint80 roundId)
        public
        view
        returns (uint80, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        Round memory r = rounds[roundId];
        // Chainlink reverts with this message for a round it never had.
        require(r.updatedAt != 0, "No data present");
        return (roundId, r.answer, r.startedAt, r.updatedAt, roundId);
    }

    function latestAnswer() external view returns (int256) {
        return rounds[latestRound].answer;
    }

    function latestTimestamp() external view returns (uint256) {
        return rounds[latestRound].updatedAt;
    }

    function _update(int256 answer) private {
        // A price feed never reports zero or a negative price; readers treat
        // such an answer as missing, so refuse to write one.
        require(answer > 0, "DevPriceFeed: answer must be positive");
        uint80 id = latestRound + 1;
        latestRound = id;
        rounds[id] = Round(answer, uint64(block.timestamp), uint64(block.timestamp));
        emit NewRound(id, msg.sender, block.timestamp);
        emit AnswerUpdated(answer, id, block.timestamp);
    }
}
