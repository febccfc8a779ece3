import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { chromium } from "@playwright/test";
import { SESSION_STORAGE_KEY } from "#shared/constants.ts";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "./chromium.ts";

const CHROME = CHROMIUM_PATH;
const FLAGS = ["--headless=new", ...CHROMIUM_FLAGS];

interface Report {
  categories: Record<string, { score: number }>;
  audits: Record<
    string,
    { numericValue?: number; details?: { items?: { resourceType: string; transferSize: number }[] } }
  >;
}

export type LighthouseRow = Record<string, number | string>;

/**
 * Lighthouse 12.8.2 (from the npm registry through npx) with its mobile preset on `url`. With `port`, it drives the
 * Chromium already listening there and keeps that browser's storage, so a page can be measured signed in.
 */
export async function lighthouse(url: string, port?: number): Promise<LighthouseRow> {
  // LIGHTHOUSE_REPORTS=<folder> keeps each full report there, to see what a score is made of.
  const folder = process.env.LIGHTHOUSE_REPORTS ?? fs.mkdtempSync(path.join(os.tmpdir(), "penchain-lh-"));
  fs.mkdirSync(folder, { recursive: true });
  const name = `${new URL(url).pathname.replace(/\W+/g, "-")}${port ? "-signed-in" : ""}.json`;
  const out = path.join(folder, name);
  const target = port ? [`--port=${port}`, "--disable-storage-reset"] : [`--chrome-flags=${FLAGS.join(" ")}`];
  const run = () =>
    promisify(execFile)(
      "npx",
      ["--yes", "lighthouse@12.8.2", url, "--quiet", "--output=json", `--output-path=${out}`, ...target],
      { env: { ...process.env, CHROME_PATH: CHROME }, maxBuffer: 64 * 1024 * 1024 },
    );
  // Lighthouse now and then fails to record a trace on a busy machine (NO_NAVSTART, NO_FCP): one more try.
  await run().catch(run);
  const report = JSON.parse(fs.readFileSync(out, "utf8")) as Report;
  const score = (name: string) => Math.round((report.categories[name]?.score ?? 0) * 100);
  const script = report.audits["resource-summary"]?.details?.items?.find((item) => item.resourceType === "script");
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    seo: score("seo"),
    bestPractices: score("best-practices"),
    lcp: Math.round(report.audits["largest-contentful-paint"]?.numericValue ?? 0),
    tbt: Math.round(report.audits["total-blocking-time"]?.numericValue ?? 0),
    cls: Number((report.audits["cumulative-layout-shift"]?.numericValue ?? 0).toFixed(3)),
    scriptKiB: Math.round((script?.transferSize ?? 0) / 1024),
  };
}

/**
 * A Chromium on a debugging port whose storage holds `session` for `origin`, as a signed-in reader's browser does;
 * `measure` runs Lighthouse against it (its tabs share the profile's storage). The browser and its profile go
 * afterwards.
 */
export async function signedIn<T>(origin: string, session: unknown, measure: (port: number) => Promise<T>) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-chrome-"));
  const port = 9300 + Math.floor(Math.random() * 500);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROME,
    headless: true,
    args: [...FLAGS.slice(1), `--remote-debugging-port=${port}`],
  });
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/robots.txt`);
    await page.evaluate(([key, value]) => localStorage.setItem(key, value), [
      SESSION_STORAGE_KEY,
      JSON.stringify(session),
    ] as const);
    await page.close();
    return await measure(port);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}
