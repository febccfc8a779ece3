// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {FeaturedFee} from "../FeaturedFee.sol";

/// @dev Test helper: owns a FeaturedFee and refuses ether, so withdrawing to it must fail.
contract EtherRefuser {
    FeaturedFee public immutable feeContract;

    constructor(uint256 initialFee) {
        feeContract = new FeaturedFee(initialFee);
    }

    function withdrawTo(address payable to) external {
        feeContract.withdraw(to);
    }
}
