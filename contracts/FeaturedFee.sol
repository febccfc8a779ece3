// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title FeaturedFee
/// @notice Collects the fee that makes a Penchain post featured. The server verifies a payment by reading the
///         FeaturePaid event from the transaction receipt, so every accepted payment path emits it.
contract FeaturedFee {
    address public immutable owner;
    uint256 public fee;

    event FeaturePaid(address indexed payer, bytes32 indexed ref, uint256 amount);
    event FeeChanged(uint256 previousFee, uint256 newFee);
    event Withdrawn(address indexed to, uint256 amount);

    error NotOwner();
    error ZeroFee();
    error ZeroAddress();
    error FeeTooLow(uint256 sent, uint256 required);
    error NothingToWithdraw();
    error WithdrawFailed();

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    constructor(uint256 initialFee) {
        if (initialFee == 0) revert ZeroFee();
        owner = msg.sender;
        fee = initialFee;
    }

    /// @param ref An opaque reference chosen by the payer (the app uses a hash of the draft); zero is allowed.
    function payFeature(bytes32 ref) external payable {
        _collect(ref);
    }

    /// @dev A plain transfer is a payment without a reference, so wallets that cannot call functions still work.
    receive() external payable {
        _collect(bytes32(0));
    }

    function setFee(uint256 newFee) external onlyOwner {
        if (newFee == 0) revert ZeroFee();
        emit FeeChanged(fee, newFee);
        fee = newFee;
    }

    function withdraw(address payable to) external onlyOwner {
        if (to == address(0)) revert ZeroAddress();
        uint256 amount = address(this).balance;
        if (amount == 0) revert NothingToWithdraw();
        emit Withdrawn(to, amount);
        (bool ok, ) = to.call{value: amount}("");
        if (!ok) revert WithdrawFailed();
    }

    function _collect(bytes32 ref) private {
        if (msg.value < fee) revert FeeTooLow(msg.value, fee);
        emit FeaturePaid(msg.sender, ref, msg.value);
    }
}
