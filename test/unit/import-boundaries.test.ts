import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Lints a probe file placed where the real project configuration applies to it, then removes it, leaving its folder
 * as it found it (`npm start` rebuilds the client when a folder of its sources changed).
 */
function lint(filePath: string, source: string) {
  const probe = path.join(ROOT, filePath.replace(/\.ts$/, `-${process.pid}.ts`));
  const folder = fs.statSync(path.dirname(probe));
  fs.writeFileSync(probe, source);
  try {
    const result = spawnSync(path.join(ROOT, "node_modules/.bin/biome"), ["lint", probe], {
      cwd: ROOT,
      encoding: "utf8",
    });
    return { ok: result.status === 0, output: result.stdout + result.stderr };
  } finally {
    fs.rmSync(probe, { force: true });
    fs.utimesSync(path.dirname(probe), folder.atime, folder.mtime);
  }
}

// Each case runs Biome over the probe, which reads the whole project's import graph (noImportCycles): 3–5 s on a
// busy machine, so the default 5 s per test is too tight.
describe("import boundaries", { timeout: 60_000 }, () => {
  it.each([
    ["src/client/lib/probe.ts", 'import { buildApp } from "../../server/app.ts";\nexport { buildApp };\n'],
    ["src/server/services/probe.ts", 'import { routes } from "../../client/app/routes.tsx";\nexport { routes };\n'],
    ["src/shared/probe.ts", 'import { loadConfig } from "../server/env.ts";\nexport { loadConfig };\n'],
    [
      "src/client/features/comments/components/probe.ts",
      'import { usePost } from "../../posts/api/get-post.ts";\nexport { usePost };\n',
    ],
    [
      "src/client/features/wallet/probe.ts",
      'import { useUser } from "../users/api/get-user.ts";\nexport { useUser };\n',
    ],
    ["src/client/lib/probe.ts", 'import { usePost } from "../features/posts/api/get-post.ts";\nexport { usePost };\n'],
    [
      "src/client/features/posts/components/probe.ts",
      'import { buildApp } from "../../../../server/app.ts";\nexport { buildApp };\n',
    ],
    ["src/server/routes/feeds/probe.ts", 'import { renderHead } from "../pages/head.ts";\nexport { renderHead };\n'],
    [
      "src/server/services/content/probe.ts",
      'import { sendCached } from "../../plugins/read-cache.ts";\nexport { sendCached };\n',
    ],
    ["src/server/infra/probe.ts", 'import { headline } from "../services/core/excerpt.ts";\nexport { headline };\n'],
    [
      "src/server/services/payments/probe.ts",
      'import { getPost } from "../content/shown-posts.ts";\nexport { getPost };\n',
    ],
    ["src/server/services/core/probe.ts", 'import { login } from "../auth/passwords.ts";\nexport { login };\n'],
    [
      "src/server/services/importing/formats/probe.ts",
      'import { sendFeeds } from "../../messages.ts";\nexport { sendFeeds };\n',
    ],
    [
      "src/client/components/layout/probe.ts",
      'import { adminKeys } from "../../features/admin/public.ts";\nexport { adminKeys };\n',
    ],
  ])("refuses %s reaching across the boundary", (file, source) => {
    const result = lint(file, source);
    expect(result.ok).toBe(false);
    expect(result.output).toContain("noRestrictedImports");
  });

  it.each([
    [
      "src/client/lib/probe.ts",
      'import { SESSION_STORAGE_KEY } from "../../shared/constants.ts";\nexport { SESSION_STORAGE_KEY };\n',
    ],
    [
      "src/server/services/probe.ts",
      'import { TX_HASH_REGEX } from "../../shared/constants.ts";\nexport { TX_HASH_REGEX };\n',
    ],
    [
      "src/client/features/comments/components/probe.ts",
      'import { useCategories } from "../../categories/public.ts";\nimport { api } from "../../../lib/api-client.ts";\nimport { useComment } from "../api/comments.ts";\nexport { useCategories, api, useComment };\n',
    ],
    [
      "src/client/features/users/probe.ts",
      'import { TipButton } from "../wallet/public.tsx";\nimport { queryKeys } from "../../lib/query-keys.ts";\nexport { TipButton, queryKeys };\n',
    ],
    [
      "src/server/services/content/probe.ts",
      'import { tipsOf } from "../payments/tips.ts";\nimport type { Deps } from "../core/deps.ts";\nexport { tipsOf, type Deps };\n',
    ],
  ])("allows %s its own files, src/shared, other features' public surfaces and rooms below", (file, source) => {
    expect(lint(file, source)).toMatchObject({ ok: true });
  });

  it("refuses an import cycle", () => {
    const dir = path.join(ROOT, "src/server/services");
    const [a, b] = [`cycle-a-${process.pid}.ts`, `cycle-b-${process.pid}.ts`];
    fs.writeFileSync(path.join(dir, a), `import { b } from "./${b}";\nexport const a = () => b;\n`);
    fs.writeFileSync(path.join(dir, b), `import { a } from "./${a}";\nexport const b = () => a;\n`);
    try {
      const result = spawnSync(path.join(ROOT, "node_modules/.bin/biome"), ["lint", path.join(dir, a)], {
        cwd: ROOT,
        encoding: "utf8",
      });
      expect(result.status).not.toBe(0);
      expect(result.stdout + result.stderr).toContain("noImportCycles");
    } finally {
      for (const file of [a, b]) fs.rmSync(path.join(dir, file), { force: true });
    }
  });
});
