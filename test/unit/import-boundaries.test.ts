import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Lints a probe file placed where the real project configuration applies to it, then removes it. */
function lint(filePath: string, source: string) {
  const probe = path.join(ROOT, filePath.replace(/\.ts$/, `-${process.pid}.ts`));
  fs.writeFileSync(probe, source);
  try {
    const result = spawnSync(path.join(ROOT, "node_modules/.bin/biome"), ["lint", probe], {
      cwd: ROOT,
      encoding: "utf8",
    });
    return { ok: result.status === 0, output: result.stdout + result.stderr };
  } finally {
    fs.rmSync(probe, { force: true });
  }
}

describe("import boundaries", () => {
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
      'import { postKeys } from "../../posts/public.ts";\nimport { api } from "../../../lib/api-client.ts";\nimport { useComment } from "../api/comments.ts";\nexport { postKeys, api, useComment };\n',
    ],
    ["src/client/features/wallet/probe.ts", 'import { userKeys } from "../users/public.ts";\nexport { userKeys };\n'],
  ])("allows %s its own files, src/shared and other features' public surfaces", (file, source) => {
    expect(lint(file, source)).toMatchObject({ ok: true });
  });
});
