// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @title DevENSRegistry
/// @notice The read side of the ENS registry (resolver(node)) with an open
/// setter, so tests and dev chains can give addresses names the way mainnet
/// ENS does: a reverse record at <addr>.addr.reverse and a forward record at
/// the name's node. Not access-controlled: dev chains only.
contract DevENSRegistry {
    mapping(bytes32 => address) public resolver;

    event NewResolver(bytes32 indexed node, address resolver);

    function setResolver(bytes32 node, address resolver_) external {
        resolver[node] = resolver_;
        emit NewResolver(node, resolver_);
    }
}

/// @title DevENSResolver
/// @notice The name, addr and text profiles of an ENS public resolver, with
/// open setters (dev chains only).
contract DevENSResolver {
    mapping(bytes32 => string) public name;
    mapping(bytes32 => address) public addr;
    mapping(bytes32 => mapping(string => string)) private texts;

    function setName(bytes32 node, string calldata name_) external {
        name[node] = name_;
    }

    function setAddr(bytes32 node, address addr_) external {
        addr[node] = addr_;
    }

    function setText(bytes32 node, string calldata key, string calldata value) external {
        texts[node][key] = value;
    }

    function text(bytes32 node, string calldata key) external view returns (string memory) {
        return texts[node][key];
    }
}
