import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir } from "../../src/server/db/data-dir-lock.ts";

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-lock-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("lockDataDir", () => {
  it("refuses a folder a live process holds, and frees it on release", () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dir)).toThrow(/in use by another Penchain server \(pid \d+\)/);
    release();
    const again = lockDataDir(dir);
    again();
  });

  it("takes over a lock left by a process that has died", () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString();
    fs.writeFileSync(path.join(dir, "penchain.lock"), dead);
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, "penchain.lock"), "utf8")).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, "penchain.lock"))).toBe(false);
  });

  it("creates a missing folder", () => {
    const dir = path.join(tempDir(), "nested", "data");
    lockDataDir(dir)();
    expect(fs.existsSync(dir)).toBe(true);
  });
});
