// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

// DevUniversalResolver is the part of ENS's universal resolver that ENS
// clients call to resolve a name (viem's getEnsAddress, getEnsText, ...):
// resolveWithGateways finds the name's resolver in the registry (the name's
// own or its nearest ancestor's, ENSIP-10), calls its resolve(name, data),
// and passes an OffchainLookup on through a batch gateway (ERC-3668), as the
// mainnet universal resolver does. Written for the dev chains, after the
// interface viem calls; it has none of the mainnet contract's other
// functions (reverse resolution, multicall).

// BatchQuery is one lookup in a batch gateway request: the contract that
// asked, its gateway URLs and its callData.
struct BatchQuery {
    address sender;
    string[] urls;
    bytes data;
}

contract DevUniversalResolver {
    address public immutable registry;

    bytes4 private constant RESOLVE_SELECTOR = 0x9061b923; // resolve(bytes,bytes), ENSIP-10
    bytes4 private constant OFFCHAIN_LOOKUP_SELECTOR = 0x556f1830; // OffchainLookup(address,string[],bytes,bytes4,bytes)
    bytes4 private constant BATCH_QUERY_SELECTOR = bytes4(keccak256("query((address,string[],bytes)[])"));

    error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData);
    error ResolverNotFound(bytes name);
    error ResolverError(bytes errorData);

    constructor(address registry_) {
        registry = registry_;
    }

    // resolveWithGateways resolves data (a resolver call such as addr(node))
    // for name (DNS-encoded) and returns the answer and the resolver.
    function resolveWithGateways(bytes calldata name, bytes calldata data, string[] calldata gateways)
        external
        view
        returns (bytes memory, address)
    {
        address resolver = findResolver(name);
        (bool ok, bytes memory ret) = resolver.staticcall(abi.encodeWithSelector(RESOLVE_SELECTOR, name, data));
        if (ok) return (abi.decode(ret, (bytes)), resolver);
        if (ret.length < 4 || bytes4(ret) != OFFCHAIN_LOOKUP_SELECTOR) revert ResolverError(ret);
        (address sender, string[] memory urls, bytes memory callData, bytes4 callback, bytes memory extraData) =
            abi.decode(stripSelector(ret), (address, string[], bytes, bytes4, bytes));
        if (sender != resolver) revert ResolverError(ret);
        BatchQuery[] memory queries = new BatchQuery[](1);
        queries[0] = BatchQuery(resolver, urls, callData);
        revert OffchainLookup(
            address(this),
            gateways,
            abi.encodeWithSelector(BATCH_QUERY_SELECTOR, queries),
            this.resolveBatchCallback.selector,
            abi.encode(resolver, callback, extraData)
        );
    }

    // resolveBatchCallback takes the batch gateway's answer,
    // abi.encode(bool[] failures, bytes[] responses), and hands the one
    // response to the resolver's own callback.
    function resolveBatchCallback(bytes calldata response, bytes calldata extraData)
        external
        view
        returns (bytes memory, address)
    {
        (bool[] memory failures, bytes[] memory responses) = abi.decode(response, (bool[], bytes[]));
        if (failures.length != 1 || responses.length != 1) revert ResolverError(response);
        if (failures[0]) revert ResolverError(responses[0]);
        (address resolver, bytes4 callback, bytes memory inner) = abi.decode(extraData, (address, bytes4, bytes));
        (bool ok, bytes memory ret) = resolver.staticcall(abi.encodeWithSelector(callback, responses[0], inner));
        if (!ok) revert ResolverError(ret);
        return (abi.decode(ret, (bytes)), resolver);
    }

    // findResolver is the registry's resolver of name or of its nearest
    // ancestor (ENSIP-10 wildcard resolution).
    function findResolver(bytes calldata name) public view returns (address) {
        uint256 offset = 0;
        while (offset < name.length) {
            (bool ok, bytes memory ret) = registry.staticcall(abi.encodeWithSelector(0x0178b8bf, namehash(name, offset))); // resolver(bytes32)
            address r = ok && ret.length == 32 ? abi.decode(ret, (address)) : address(0);
            if (r != address(0)) return r;
            uint256 len = uint8(name[offset]);
            if (len == 0) break;
            offset += 1 + len;
        }
        revert ResolverNotFound(name);
    }

    // namehash is EIP-137's hash of the DNS-encoded name from offset on.
    function namehash(bytes calldata name, uint256 offset) internal pure returns (bytes32) {
        uint256 len = uint8(name[offset]);
        if (len == 0) return bytes32(0);
        bytes32 label = keccak256(name[offset + 1:offset + 1 + len]);
        return keccak256(abi.encodePacked(namehash(name, offset + 1 + len), label));
    }

    function stripSelector(bytes memory b) internal pure returns (bytes memory out) {
        out = new bytes(b.length - 4);
        for (uint256 i = 0; i < out.length; i++) {
            out[i] = b[i + 4];
        }
    }
}
