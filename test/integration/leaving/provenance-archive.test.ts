import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import type { App } from "../../../src/server/app.ts";
import { importedProvenance, posts } from "../../../src/server/db/schema.ts";
import { writeArchive } from "../../../src/server/services/leaving/archive.ts";
import { buildTestApp } from "../../support/app.ts";
import { importArchive, zipOf } from "../../support/archives.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { type SmtpServer, startSmtpServer } from "../../support/smtp.ts";
import { bearer, makeAdmin, signUp, verifyWallet } from "../../support/users.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../..");
// Each check starts a node process of its own.
const SCRIPT_RUNS = 120_000;

/** `npm run verify-post -- …` as a reader runs it: its exit code and what it printed. */
async function verifyPost(...args: string[]) {
  try {
    const { stdout } = await run(process.execPath, [path.join(ROOT, "scripts/verify-post.ts"), ...args], { cwd: ROOT });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: `${failed.stdout}${failed.stderr}` };
  }
}

/** Every entry of a zip file, by name. */
function unzip(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on("entry", (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        }),
      );
      zip.on("end", () => resolve(entries));
      zip.on("error", reject);
      zip.readEntry();
    }),
  );
}

describe.each(databaseTargets)(
  "A post's provenance carried in archives and checked by verify-post, on $name",
  (target) => {
    let app: App;
    let smtp: SmtpServer;
    let site: string;
    let dir: string;
    let category: string;
    const wallet = privateKeyToAccount(generatePrivateKey());
    let author: Awaited<ReturnType<typeof signUp>>;
    let postId: string;

    beforeAll(async () => {
      smtp = await startSmtpServer();
      app = await buildTestApp(await target.open(), { env: { FEDERATION: "on", SMTP_URL: smtp.url } });
      site = await app.listen({ host: "127.0.0.1", port: 0 });
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-provenance-"));
      const admin = await signUp(app);
      await makeAdmin(app, admin.id);
      category = (await createCategory(app, admin)).title;
      author = await signUp(app, { firstName: "Prov" });
      await verifyWallet(app, author, wallet);
      // Revision 1, signed by the author's wallet; revision 2 (an edit) left unsigned.
      postId = (await createPost(app, author, category, { title: "Signed words", description: "<p>First.</p>" })).id;
      await signLatest();
      const edited = await app.inject({
        method: "PUT",
        url: `/api/posts/${postId}`,
        headers: bearer(author),
        payload: { title: "Signed words", description: "<p>First, then more.</p>", category },
      });
      expect(edited.statusCode, edited.body).toBe(200);
    }, SCRIPT_RUNS);
    afterAll(async () => {
      await app?.close();
      await smtp?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    /** Signs the post's latest revision with the author's wallet, as the app's prompt does, from the API's typed data. */
    async function signLatest() {
      const provenance = await app.inject({
        method: "GET",
        url: `/api/posts/${postId}/provenance`,
        headers: bearer(author),
      });
      const { toSign, latest } = provenance.json();
      expect(toSign).not.toBeNull();
      const signature = await wallet.signTypedData({
        ...toSign,
        message: { ...toSign.message, revision: BigInt(toSign.message.revision) },
      });
      const signed = await app.inject({
        method: "POST",
        url: `/api/posts/${postId}/revisions/${latest}/signature`,
        headers: bearer(author),
        payload: { signature },
      });
      expect(signed.statusCode, signed.body).toBe(200);
    }

    async function archiveOf(userId: string, name: string) {
      const file = path.join(dir, name);
      await writeArchive(app.deps, userId, file);
      return file;
    }

    it(
      "checks a post on its site: each digest, the chain, the wallet's signature and the site's proof",
      async () => {
        const result = await verifyPost(`${site}/posts/${postId}`);
        expect(result.output).toContain(`revision 1: signed by ${wallet.address} (EIP-712, recovered offline)`);
        expect(result.output).toMatch(/revision 2: follows revision 1 \([0-9a-f]{64}\)/);
        expect(result.output).toContain("revision 2: not signed by its author");
        expect(result.output).toMatch(
          /revision 2: the site's proof \(FEP-8b32, eddsa-jcs-2022\) verifies with http:\/\/penchain\.test\/ap\/actors\/site#/,
        );
        expect(result.output).toContain("the post the site shows now is revision 2");
        expect(result.code, result.output).toBe(0);
      },
      SCRIPT_RUNS,
    );

    it(
      "keeps every revision and signature in Download my data, where they verify offline, and fails a tampered copy",
      async () => {
        const file = await archiveOf(author.id, "author.zip");
        const entries = await unzip(file);
        const name = [...entries.keys()].find((entry) => entry.endsWith("/provenance.json"));
        expect(name).toBeDefined();
        const kept = JSON.parse(String(entries.get(name as string)));
        expect(kept).toMatchObject({ post: postId, chainId: 31337, siteKey: { id: expect.stringContaining("#") } });
        expect(kept.revisions.map((revision: { revision: number }) => revision.revision)).toEqual([1, 2]);
        expect(kept.revisions[0].author.signer).toBe(wallet.address);

        const checked = await verifyPost(file);
        expect(checked.output).toContain(`revision 1: signed by ${wallet.address}`);
        expect(checked.output).toContain("pass --site URL to compare it");
        expect(checked.code, checked.output).toBe(0);
        const compared = await verifyPost(file, "--site", site);
        expect(compared.output).toContain(`the archive's key is the one ${site} publishes now`);
        expect(compared.code, compared.output).toBe(0);

        // The body of revision 1 rewritten: its digest no longer holds, nor does the site's proof of it.
        const forged = structuredClone(kept);
        forged.revisions[0].canonical.body = "<p>Words the author never wrote.</p>";
        const tampered = path.join(dir, "tampered.zip");
        fs.writeFileSync(
          tampered,
          await zipOf({ ...Object.fromEntries(entries), [name as string]: JSON.stringify(forged) }),
        );
        const failed = await verifyPost(tampered);
        expect(failed.output).toMatch(/✗ revision 1: its canonical object hashes to [0-9a-f]{64}, not to the digest/);
        expect(failed.code).toBe(1);

        // Digest and chain recomputed by the forger too: the author's signature and the site's proof still give it away.
        const rehashed = structuredClone(forged);
        const { revisionDigest } = await import("../../../src/shared/provenance.ts");
        rehashed.revisions[0].digest = await revisionDigest(rehashed.revisions[0].canonical);
        rehashed.revisions[1].previous = rehashed.revisions[0].digest;
        rehashed.revisions[1].canonical.previous = rehashed.revisions[0].digest;
        rehashed.revisions[1].digest = await revisionDigest(rehashed.revisions[1].canonical);
        const alone = path.join(dir, "rehashed.json");
        fs.writeFileSync(alone, JSON.stringify(rehashed));
        const caught = await verifyPost(alone);
        expect(caught.output).toContain("revision 1: the signature is not");
        expect(caught.output).toMatch(
          /✗ revision 1: the site's proof .* does not verify|✗ revision 1: the article the site signed is not this revision/,
        );
        expect(caught.code).toBe(1);
      },
      SCRIPT_RUNS,
    );

    it(
      "a body changed in the database: verify-post says the site no longer shows what was signed",
      async () => {
        const other = await createPost(app, author, category, {
          title: "Changed behind",
          description: "<p>As written.</p>",
        });
        await app.db
          .update(posts)
          .set({ description: "<p>Rewritten in the database.</p>" })
          .where(eq(posts.id, other.id));
        const result = await verifyPost(`${site}/posts/${other.id}`);
        expect(result.output).toContain("✗ the post the site shows now does not match its latest revision");
        expect(result.code).toBe(1);
      },
      SCRIPT_RUNS,
    );

    it(
      "an imported Penchain archive keeps the revisions, hands them back in the next archive, and they still verify",
      async () => {
        const file = await archiveOf(author.id, "to-import.zip");
        const newcomer = await signUp(app, { firstName: "Moved" });
        const state = await importArchive<{ status: string; errors: unknown[] }>(
          app,
          newcomer,
          { format: "markdown" },
          { data: fs.readFileSync(file), filename: "penchain.zip" },
        );
        expect(state.status).toBe("done");
        const [copy] = await app.db
          .select()
          .from(posts)
          .where(and(eq(posts.userId, newcomer.id), eq(posts.title, "Signed words")));
        expect(copy?.status).toBe("published");
        const [kept] = await app.db
          .select()
          .from(importedProvenance)
          .where(eq(importedProvenance.postId, copy?.id as string));
        expect(kept?.document).toMatchObject({ post: postId, revisions: [{ revision: 1 }, { revision: 2 }] });

        const again = await archiveOf(newcomer.id, "newcomer.zip");
        const entries = await unzip(again);
        const carried = [...entries]
          .filter(([entry]) => entry.endsWith("/provenance.json"))
          .map(([, bytes]) => JSON.parse(String(bytes)))
          .find((file) => file.post === copy?.id);
        expect(carried.post).toBe(copy?.id);
        expect(carried.imported.map((earlier: { post: string }) => earlier.post)).toEqual([postId]);
        const result = await verifyPost(again);
        expect(result.output).toContain(`imported from http://penchain.test/posts/${postId}/provenance`);
        expect(result.output).toContain(`revision 1: signed by ${wallet.address}`);
        expect(result.code, result.output).toBe(0);
      },
      SCRIPT_RUNS,
    );
  },
);
