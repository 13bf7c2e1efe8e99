// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

// An ENS offchain resolver: it answers every name under the node it is set
// for (ENSIP-10 wildcard resolution) by sending the client to a gateway
// (ERC-3668 CCIP-Read) and accepting the gateway's answer only when one of
// its trusted signers signed it and it has not expired.
//
// Written after the interfaces of ENSIP-10 and ERC-3668 and the signed
// response format of ENS's reference offchain resolver, so ENS clients
// (viem, ethers, ensjs) resolve through it unchanged.

// The selector of resolve(bytes,bytes): ENSIP-10's resolve on the resolver,
// and the gateway's function, returns (bytes result, uint64 expires, bytes
// sig), whose call the client sends the gateway as OffchainLookup's callData.
bytes4 constant RESOLVE_SELECTOR = 0x9061b923;

contract OffchainResolver {
    string public url;
    mapping(address => bool) public signers;
    address public owner;

    event NewSigners(address[] signers);
    event NewURL(string url);

    error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData);
    error NotOwner();
    error UnknownSigner(address signer);
    error ResponseExpired(uint64 expires);
    error BadSignature();

    constructor(string memory url_, address[] memory signers_) {
        owner = msg.sender;
        url = url_;
        for (uint256 i = 0; i < signers_.length; i++) {
            signers[signers_[i]] = true;
        }
        emit NewSigners(signers_);
    }

    // setURL and setSigners let the owner move the gateway or rotate its key.
    function setURL(string calldata url_) external {
        if (msg.sender != owner) revert NotOwner();
        url = url_;
        emit NewURL(url_);
    }

    function setSigners(address[] calldata add, address[] calldata remove) external {
        if (msg.sender != owner) revert NotOwner();
        for (uint256 i = 0; i < remove.length; i++) {
            signers[remove[i]] = false;
        }
        for (uint256 i = 0; i < add.length; i++) {
            signers[add[i]] = true;
        }
        emit NewSigners(add);
    }

    // resolve always reverts with OffchainLookup: name is DNS-encoded, data
    // the resolver call (addr, text, ...) the client wants answered.
    function resolve(bytes calldata name, bytes calldata data) external view returns (bytes memory) {
        bytes memory callData = abi.encodeWithSelector(RESOLVE_SELECTOR, name, data);
        string[] memory urls = new string[](1);
        urls[0] = url;
        revert OffchainLookup(address(this), urls, callData, OffchainResolver.resolveWithProof.selector, callData);
    }

    // resolveWithProof is the callback: response is the gateway's
    // abi.encode(result, expires, sig), extraData the callData it answered.
    function resolveWithProof(bytes calldata response, bytes calldata extraData) external view returns (bytes memory) {
        (bytes memory result, uint64 expires, bytes memory sig) = abi.decode(response, (bytes, uint64, bytes));
        if (expires < block.timestamp) revert ResponseExpired(expires);
        address signer = recover(makeSignatureHash(address(this), expires, extraData, result), sig);
        if (!signers[signer]) revert UnknownSigner(signer);
        return result;
    }

    // makeSignatureHash is what the gateway signs (EIP-191 version 0x00,
    // "data with intended validator"): this resolver, the expiry, and the
    // hashes of the request and the result.
    function makeSignatureHash(address target, uint64 expires, bytes memory request, bytes memory result)
        public
        pure
        returns (bytes32)
    {
        return keccak256(abi.encodePacked(hex"1900", target, expires, keccak256(request), keccak256(result)));
    }

    function supportsInterface(bytes4 interfaceID) external pure returns (bool) {
        return interfaceID == RESOLVE_SELECTOR || interfaceID == 0x01ffc9a7; // ENSIP-10, ERC-165
    }

    // recover is ecrecover for a 65-byte r‖s‖v signature, refusing the
    // malleable upper half of s.
    function recover(bytes32 hash, bytes memory sig) internal pure returns (address) {
        if (sig.length != 65) revert BadSignature();
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(sig, 0x20))
            s := mload(add(sig, 0x40))
            v := byte(0, mload(add(sig, 0x60)))
        }
        if (v < 27) v += 27;
        if (uint256(s) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0) revert BadSignature();
        address signer = ecrecover(hash, v, r, s);
        if (signer == address(0)) revert BadSignature();
        return signer;
    }
}
