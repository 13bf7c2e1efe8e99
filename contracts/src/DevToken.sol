// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title DevToken
/// @notice A plain ERC-20 for the latchd dev chains. The deployer owns it and is
/// the only account that may mint, which is how the dev faucet hands out tokens.
contract DevToken {
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;
    address public immutable owner;

    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        owner = msg.sender;
    }

    /// @notice Creates `amount` new tokens for `to`. Only the owner may mint.
    function mint(address to, uint256 amount) external {
        require(msg.sender == owner, "DevToken: caller is not the owner");
        require(to != address(0), "DevToken: mint to the zero address");
        totalSupply += amount;
        // Cannot overflow: no balance exceeds totalSupply, which was checked above.
        unchecked {
            balanceOf[to] += amount;
        }
        emit Transfer(address(0), to, amount);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        require(spender != address(0), "DevToken: approve to the zero address");
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        // An allowance of type(uint256).max is "unlimited" and is never spent,
        // as in most deployed tokens; routers and wallets rely on that.
        if (allowed != type(uint256).max) {
            require(allowed >= value, "DevToken: insufficient allowance");
            unchecked {
                allowance[from][msg.sender] = allowed - value;
            }
        }
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        require(to != address(0), "DevToken: transfer to the zero address");
        uint256 balance = balanceOf[from];
        require(balance >= value, "DevToken: transfer amount exceeds balance");
        unchecked {
            balanceOf[from] = balance - value;
            balanceOf[to] += value;
        }
        emit Transfer(from, to, value);
    }
}
