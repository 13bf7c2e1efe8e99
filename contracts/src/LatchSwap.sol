// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @dev The ERC-20 calls the AMM makes. Tokens that return nothing from
/// transfer (USDT-style) are accepted: only an explicit false fails.
interface ILatchSwapERC20 {
    function balanceOf(address owner) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// @dev Wrapped native coin (WETH9 interface).
interface ILatchSwapWETH {
    function deposit() external payable;
    function withdraw(uint256 wad) external;
    function transfer(address to, uint256 value) external returns (bool);
}

/// @dev Token transfers that revert on any failure, including a false return.
library LatchSwapTransfer {
    function send(address token, address to, uint256 value) internal {
        (bool ok, bytes memory ret) = token.call(abi.encodeCall(ILatchSwapERC20.transfer, (to, value)));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "LatchSwap: TRANSFER_FAILED");
    }

    function pull(address token, address from, address to, uint256 value) internal {
        (bool ok, bytes memory ret) = token.call(abi.encodeCall(ILatchSwapERC20.transferFrom, (from, to, value)));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "LatchSwap: TRANSFER_FROM_FAILED");
    }

    function sendNative(address to, uint256 value) internal {
        (bool ok,) = to.call{value: value}("");
        require(ok, "LatchSwap: NATIVE_TRANSFER_FAILED");
    }
}

/// @title LatchSwapPair
/// @notice A constant-product pool of two tokens with a 0.3% fee on input,
/// for the latchd dev chains. Its external functions have the signatures and
/// the semantics of a Uniswap V2 pair (getReserves, token0, token1, mint, burn,
/// swap, sync), so code written against V2 pairs reads and uses it unchanged.
/// Liquidity shares are tracked per holder; they are not transferable.
/// Callers push tokens first and then call mint or swap, which compare the
/// pool's balances with its recorded reserves.
contract LatchSwapPair {
    /// @notice Shares locked forever at the first deposit, so the share price
    /// can never be pushed to where one share is worth a whole pool.
    uint256 public constant MINIMUM_LIQUIDITY = 1000;

    address public immutable factory;
    address public immutable token0;
    address public immutable token1;

    uint112 private reserve0;
    uint112 private reserve1;
    uint32 private blockTimestampLast;

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;

    bool private locked;

    event Mint(address indexed sender, uint256 amount0, uint256 amount1);
    event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to);
    event Swap(
        address indexed sender,
        uint256 amount0In,
        uint256 amount1In,
        uint256 amount0Out,
        uint256 amount1Out,
        address indexed to
    );
    event Sync(uint112 reserve0, uint112 reserve1);

    modifier nonReentrant() {
        require(!locked, "LatchSwap: LOCKED");
        locked = true;
        _;
        locked = false;
    }

    constructor(address tokenA, address tokenB) {
        require(tokenA < tokenB, "LatchSwap: UNSORTED_TOKENS");
        factory = msg.sender;
        token0 = tokenA;
        token1 = tokenB;
    }

    function getReserves() external view returns (uint112, uint112, uint32) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    /// @notice Credits `to` with shares for the tokens sent to the pool since
    /// the last update: the geometric mean for the first deposit, otherwise the
    /// smaller of the two proportional shares (the excess of the other token is
    /// a gift to the pool).
    function mint(address to) external nonReentrant returns (uint256 liquidity) {
        (uint256 balance0, uint256 balance1) = _balances();
        uint256 amount0 = balance0 - reserve0;
        uint256 amount1 = balance1 - reserve1;
        uint256 supply = totalSupply;
        if (supply == 0) {
            liquidity = _sqrt(amount0 * amount1) - MINIMUM_LIQUIDITY;
            totalSupply = MINIMUM_LIQUIDITY;
        } else {
            uint256 by0 = (amount0 * supply) / reserve0;
            uint256 by1 = (amount1 * supply) / reserve1;
            liquidity = by0 < by1 ? by0 : by1;
        }
        require(liquidity > 0, "LatchSwap: INSUFFICIENT_LIQUIDITY_MINTED");
        totalSupply += liquidity;
        balanceOf[to] += liquidity;
        _update(balance0, balance1);
        emit Mint(msg.sender, amount0, amount1);
    }

    /// @notice Burns the shares the caller holds and sends their part of both
    /// reserves to `to`.
    function burn(address to) external nonReentrant returns (uint256 amount0, uint256 amount1) {
        uint256 liquidity = balanceOf[msg.sender];
        (uint256 balance0, uint256 balance1) = _balances();
        amount0 = (liquidity * balance0) / totalSupply;
        amount1 = (liquidity * balance1) / totalSupply;
        require(amount0 > 0 && amount1 > 0, "LatchSwap: INSUFFICIENT_LIQUIDITY_BURNED");
        balanceOf[msg.sender] = 0;
        totalSupply -= liquidity;
        LatchSwapTransfer.send(token0, to, amount0);
        LatchSwapTransfer.send(token1, to, amount1);
        (balance0, balance1) = _balances();
        _update(balance0, balance1);
        emit Burn(msg.sender, amount0, amount1, to);
    }

    /// @notice Sends the requested amounts out, then requires that what was
    /// sent in, less the 0.3% fee, keeps reserve0 × reserve1 from falling.
    /// Flash swaps (non-empty data) are not offered.
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external nonReentrant {
        require(data.length == 0, "LatchSwap: FLASH_SWAPS_NOT_SUPPORTED");
        require(amount0Out > 0 || amount1Out > 0, "LatchSwap: INSUFFICIENT_OUTPUT_AMOUNT");
        require(amount0Out < reserve0 && amount1Out < reserve1, "LatchSwap: INSUFFICIENT_LIQUIDITY");
        require(to != token0 && to != token1, "LatchSwap: INVALID_TO");
        if (amount0Out > 0) LatchSwapTransfer.send(token0, to, amount0Out);
        if (amount1Out > 0) LatchSwapTransfer.send(token1, to, amount1Out);
        (uint256 in0, uint256 in1) = _settle(amount0Out, amount1Out);
        emit Swap(msg.sender, in0, in1, amount0Out, amount1Out, to);
    }

    /// @dev After the outputs left: what came in, checked against the
    /// constant product less the fee, then the new reserves recorded.
    function _settle(uint256 amount0Out, uint256 amount1Out) private returns (uint256 in0, uint256 in1) {
        uint256 r0 = reserve0;
        uint256 r1 = reserve1;
        (uint256 balance0, uint256 balance1) = _balances();
        in0 = balance0 > r0 - amount0Out ? balance0 - (r0 - amount0Out) : 0;
        in1 = balance1 > r1 - amount1Out ? balance1 - (r1 - amount1Out) : 0;
        require(in0 > 0 || in1 > 0, "LatchSwap: INSUFFICIENT_INPUT_AMOUNT");
        // Balances in thousandths, the fee (3 of every 1000 sent in) left out.
        uint256 adjusted0 = balance0 * 1000 - in0 * 3;
        uint256 adjusted1 = balance1 * 1000 - in1 * 3;
        require(adjusted0 * adjusted1 >= r0 * r1 * 1_000_000, "LatchSwap: K");
        _update(balance0, balance1);
    }

    /// @notice Sets the reserves to the pool's balances.
    function sync() external nonReentrant {
        (uint256 balance0, uint256 balance1) = _balances();
        _update(balance0, balance1);
    }

    function _balances() private view returns (uint256, uint256) {
        return (ILatchSwapERC20(token0).balanceOf(address(this)), ILatchSwapERC20(token1).balanceOf(address(this)));
    }

    function _update(uint256 balance0, uint256 balance1) private {
        require(balance0 <= type(uint112).max && balance1 <= type(uint112).max, "LatchSwap: OVERFLOW");
        reserve0 = uint112(balance0);
        reserve1 = uint112(balance1);
        blockTimestampLast = uint32(block.timestamp);
        emit Sync(reserve0, reserve1);
    }

    /// @dev Babylonian square root, rounded down.
    function _sqrt(uint256 y) private pure returns (uint256 z) {
        if (y > 3) {
            z = y;
            uint256 x = y / 2 + 1;
            while (x < z) {
                z = x;
                x = (y / x + x) / 2;
            }
        } else if (y != 0) {
            z = 1;
        }
    }
}

/// @title LatchSwapFactory
/// @notice Creates one LatchSwapPair per token pair and finds it again, with
/// the Uniswap V2 factory's getPair, allPairs, allPairsLength and createPair.
contract LatchSwapFactory {
    mapping(address => mapping(address => address)) public getPair;
    address[] public allPairs;

    event PairCreated(address indexed token0, address indexed token1, address pair, uint256);

    function allPairsLength() external view returns (uint256) {
        return allPairs.length;
    }

    function createPair(address tokenA, address tokenB) external returns (address pair) {
        require(tokenA != tokenB, "LatchSwap: IDENTICAL_ADDRESSES");
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0), "LatchSwap: ZERO_ADDRESS");
        require(getPair[token0][token1] == address(0), "LatchSwap: PAIR_EXISTS");
        pair = address(new LatchSwapPair(token0, token1));
        getPair[token0][token1] = pair;
        getPair[token1][token0] = pair;
        allPairs.push(pair);
        emit PairCreated(token0, token1, pair, allPairs.length);
    }
}

/// @title LatchSwapRouter
/// @notice Swaps along a path of LatchSwapPairs with the Uniswap V2 router's
/// function signatures: exact input, a minimum output and a deadline. Every
/// pool takes a 0.3% fee on what it receives.
contract LatchSwapRouter {
    address public immutable factory;
    address public immutable WETH;

    modifier ensure(uint256 deadline) {
        require(deadline >= block.timestamp, "LatchSwap: EXPIRED");
        _;
    }

    constructor(address factory_, address weth_) {
        factory = factory_;
        WETH = weth_;
    }

    /// @dev Only the wrapped-coin contract sends the router ether (withdraw).
    receive() external payable {
        require(msg.sender == WETH, "LatchSwap: ETHER_NOT_ACCEPTED");
    }

    /// @notice What a pool with these reserves pays for amountIn: the output
    /// that keeps reserveIn × reserveOut constant after a 0.3% fee, rounded down.
    function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) public pure returns (uint256) {
        require(amountIn > 0, "LatchSwap: INSUFFICIENT_INPUT_AMOUNT");
        require(reserveIn > 0 && reserveOut > 0, "LatchSwap: INSUFFICIENT_LIQUIDITY");
        uint256 inAfterFee = amountIn * 997;
        return (inAfterFee * reserveOut) / (reserveIn * 1000 + inAfterFee);
    }

    /// @notice The amount at every step of path for amountIn of path[0].
    function getAmountsOut(uint256 amountIn, address[] memory path) public view returns (uint256[] memory amounts) {
        require(path.length >= 2, "LatchSwap: INVALID_PATH");
        amounts = new uint256[](path.length);
        amounts[0] = amountIn;
        for (uint256 i; i < path.length - 1; i++) {
            (uint256 reserveIn, uint256 reserveOut) = _reserves(path[i], path[i + 1]);
            amounts[i + 1] = getAmountOut(amounts[i], reserveIn, reserveOut);
        }
    }

    function swapExactTokensForTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256[] memory amounts) {
        amounts = getAmountsOut(amountIn, path);
        require(amounts[amounts.length - 1] >= amountOutMin, "LatchSwap: INSUFFICIENT_OUTPUT_AMOUNT");
        LatchSwapTransfer.pull(path[0], msg.sender, _pair(path[0], path[1]), amounts[0]);
        _swap(amounts, path, to);
    }

    function swapExactETHForTokens(uint256 amountOutMin, address[] calldata path, address to, uint256 deadline)
        external
        payable
        ensure(deadline)
        returns (uint256[] memory amounts)
    {
        require(path[0] == WETH, "LatchSwap: INVALID_PATH");
        amounts = getAmountsOut(msg.value, path);
        require(amounts[amounts.length - 1] >= amountOutMin, "LatchSwap: INSUFFICIENT_OUTPUT_AMOUNT");
        ILatchSwapWETH(WETH).deposit{value: amounts[0]}();
        LatchSwapTransfer.send(WETH, _pair(path[0], path[1]), amounts[0]);
        _swap(amounts, path, to);
    }

    function swapExactTokensForETH(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256[] memory amounts) {
        require(path[path.length - 1] == WETH, "LatchSwap: INVALID_PATH");
        amounts = getAmountsOut(amountIn, path);
        require(amounts[amounts.length - 1] >= amountOutMin, "LatchSwap: INSUFFICIENT_OUTPUT_AMOUNT");
        LatchSwapTransfer.pull(path[0], msg.sender, _pair(path[0], path[1]), amounts[0]);
        _swap(amounts, path, address(this));
        ILatchSwapWETH(WETH).withdraw(amounts[amounts.length - 1]);
        LatchSwapTransfer.sendNative(to, amounts[amounts.length - 1]);
    }

    /// @dev Each pool of the path sends its output straight to the next pool,
    /// the last one to `to`; the first pool already holds amounts[0].
    function _swap(uint256[] memory amounts, address[] calldata path, address to) private {
        for (uint256 i; i < path.length - 1; i++) {
            (address input, address output) = (path[i], path[i + 1]);
            uint256 out = amounts[i + 1];
            (uint256 amount0Out, uint256 amount1Out) = input < output ? (uint256(0), out) : (out, uint256(0));
            address recipient = i < path.length - 2 ? _pair(output, path[i + 2]) : to;
            LatchSwapPair(_pair(input, output)).swap(amount0Out, amount1Out, recipient, new bytes(0));
        }
    }

    function _pair(address a, address b) private view returns (address pair) {
        pair = LatchSwapFactory(factory).getPair(a, b);
        require(pair != address(0), "LatchSwap: NO_PAIR");
    }

    function _reserves(address a, address b) private view returns (uint256 reserveA, uint256 reserveB) {
        LatchSwapPair pair = LatchSwapPair(_pair(a, b));
        (uint112 r0, uint112 r1,) = pair.getReserves();
        (reserveA, reserveB) = a < b ? (uint256(r0), uint256(r1)) : (uint256(r1), uint256(r0));
    }
}
