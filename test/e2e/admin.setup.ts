import { expect, test as setup } from "@playwright/test";
import { ADMIN } from "./fixtures/admin.ts";

// Runs before every other project on the fresh database: the first account registered becomes the admin.
setup("register the site admin", async ({ request }) => {
  const response = await request.post("/api/users/register", {
    data: {
      firstName: "Ada",
      lastName: "Admin",
      ...ADMIN,
      walletAddress: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
    },
  });
  expect(response.status()).toBe(201);
  expect((await response.json()).isAdmin).toBe(true);
});
