import { ethereumWalletMockFixtures } from "@synthetixio/ethereum-wallet-mock/playwright";
import { testWithSynpress } from "@synthetixio/synpress-core";
import { logIn, registerUser } from "./fixtures/accounts.ts";

// synpress's Ethereum wallet mock: a MetaMask-like window.ethereum that sits on chain 1 and cannot leave it.
const test = testWithSynpress(ethereumWalletMockFixtures);
const { expect } = test;

test("a wallet on another network is asked to switch to the site's chain, and the form is kept", async ({
  page,
  request,
  ethereumWalletMock,
}) => {
  const writer = await registerUser(request, { firstName: "Nia" });
  await logIn(page, writer.email);
  await page.getByRole("link", { name: "New Blog" }).click();
  // Loading a page resets the mock; this connects its account again, as a wallet that knows the site would.
  await ethereumWalletMock.connectToDapp();
  expect(await ethereumWalletMock.getAccountAddress()).toMatch(/^0x[0-9a-fA-F]{40}$/);
  await page.getByLabel("Title").fill("On the wrong network");
  await page.getByText("Yes", { exact: true }).click();

  // RainbowKit flags the network; paying asks the wallet to switch, and stops with words saying what to do.
  await expect(page.getByText("Wrong network")).toBeVisible();
  await page.evaluate(() => {
    const wallet = window as unknown as {
      ethereum: { request: (args: { method: string }) => unknown };
      asked: string[];
    };
    const request = wallet.ethereum.request.bind(wallet.ethereum);
    wallet.asked = [];
    wallet.ethereum.request = (args) => {
      wallet.asked.push(args.method);
      return request(args);
    };
  });
  await page.getByRole("button", { name: "Pay 0.01 ETH" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "Your wallet did not switch to Hardhat. Switch it there yourself (adding the network if your wallet does not know it) and try again.",
  );
  expect(await page.evaluate(() => (window as unknown as { asked: string[] }).asked)).toContain(
    "wallet_switchEthereumChain",
  );
  await expect(page.getByLabel("Title")).toHaveValue("On the wrong network");
  await expect(page.getByLabel("Transaction Hash")).toHaveValue("");
});
