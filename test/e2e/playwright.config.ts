import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../../scripts/lib/chromium.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
// Ports of their own, so the tests never meet a server a developer is running.
const PORT = Number(process.env.E2E_PORT ?? 3210);
const CHAIN_PORT = Number(process.env.E2E_CHAIN_PORT ?? 8645);
const DATA_DIR = path.join(ROOT, "data/e2e");
export const baseURL = `http://localhost:${PORT}`;

export default defineConfig({
  testDir: ".",
  outputDir: path.join(ROOT, "test-results/e2e"),
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  // A journey walks two or three people through a dozen screens; on a busy two-core machine some take close to
  // Playwright's default 30 s. A step that hangs still fails at its own 5 s expectation.
  timeout: 60_000,
  reporter: [["list"], ["html", { open: "never", outputFolder: path.join(ROOT, "playwright-report") }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS },
  },
  projects: [
    { name: "setup", testMatch: /admin\.setup\.ts/ },
    { name: "desktop", dependencies: ["setup"], use: { ...devices["Desktop Chrome"], channel: undefined } },
    // Journeys run once, on the desktop; the phone checks the layout of the smoke screens.
    {
      name: "phone",
      testMatch: /smoke\.spec\.ts/,
      use: { ...devices["Pixel 7"], viewport: { width: 360, height: 780 } },
    },
  ],
  webServer: {
    // Exactly what `npm start` runs, on a fresh data folder and its own chain.
    command: `rm -rf "${DATA_DIR}" && "${path.join(ROOT, "node_modules/.bin/node")}" scripts/start.ts`,
    cwd: ROOT,
    url: `${baseURL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "pipe",
    // Every test registers its own users from this one address: the limits stay on, with room for the suite.
    // Federation on at a local address (FEDERATION=on), so a peer of the test's own can reply to posts.
    env: {
      PORT: String(PORT),
      CHAIN_PORT: String(CHAIN_PORT),
      DATA_DIR,
      LOG_LEVEL: "warn",
      RATE_LIMIT_FACTOR: "20",
      FEDERATION: "on",
    },
  },
});
