// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @dev Test helper: a smart account (ERC-1271) whose owner's key signs for it: a signature is valid when it is
/// the owner's 65-byte ECDSA signature of the hash.
contract OwnedSmartAccount {
    bytes4 internal constant MAGIC_VALUE = 0x1626ba7e;
    bytes4 internal constant INVALID = 0xffffffff;
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return INVALID;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? MAGIC_VALUE : INVALID;
    }
}
