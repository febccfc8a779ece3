// Checks a post's provenance:  npm run verify-post -- <post URL | exported archive.zip | provenance.json>
//                                                     [--rpc URL] [--site URL]
// Each revision's digest is recomputed from its canonical object (RFC 8785), the chain of previous digests followed,
// the author's EIP-712 signature recovered offline (a smart account's only through --rpc), and the site's FEP-8b32
// proof verified with the key the site's actor publishes: fetched from the site given a URL; from an archive, the
// key it carries (--site compares it with the one the site publishes now). Given a URL, the post as the site shows
// it now is compared with its latest revision too. Exit code: 0 all checked, 1 a check failed, 2 could not read,
// 3 nothing failed but a signature only the chain can check was left unchecked.
import fs from "node:fs";
import { parseArgs } from "node:util";
import {
  PROVENANCE_FILE_MAX_BYTES,
  type ProvenanceFile,
  provenanceFileSchema,
  type SiteProvenance,
} from "../src/shared/schemas/provenance-file.ts";
import { multikeyX } from "./lib/log-check.ts";
import { type Check, checkPost } from "./lib/post-check.ts";
import { readZipEntries } from "./lib/zip-entries.ts";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { rpc: { type: "string" }, site: { type: "string" } },
});
const source = positionals[0];
if (!source || positionals.length > 1) {
  console.error(
    "Usage: npm run verify-post -- <https://site/posts/ID | archive.zip | provenance.json> [--rpc URL] [--site URL]",
  );
  process.exit(2);
}
const isUrl = (text: string) => /^https?:\/\//.test(text);

async function getJson(url: URL, accept = "application/json") {
  const response = await fetch(url, { headers: { accept }, redirect: "error" });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as Record<string, unknown>;
}

/** The Ed25519 key with this id that the site's own actor publishes (`assertionMethod`), fetched from the site. */
async function actorKey(origin: string, keyId: string) {
  const actor = new URL("/ap/actors/site", origin);
  const document = await getJson(actor, "application/activity+json");
  const methods = [document.assertionMethod].flat() as { id?: unknown; publicKeyMultibase?: unknown }[];
  const method = methods.find((candidate) => candidate?.id === keyId);
  const x = multikeyX(method?.publicKeyMultibase);
  if (!x) throw new Error(`${actor} publishes no Ed25519 key ${keyId}`);
  return { id: keyId, x };
}

/** A post's provenance from its site: the API's revisions, the chain id, and the actor's key from the actor. */
async function fromSite(address: string): Promise<{ file: ProvenanceFile; checks: Check[] }> {
  const url = new URL(address);
  const id = /^\/posts\/([^/]+)(?:\/provenance)?\/?$/.exec(url.pathname)?.[1];
  if (!id) throw new Error(`${address} is not a post's address (/posts/ID)`);
  const answer = await getJson(new URL(`/api/posts/${id}/provenance`, url.origin));
  const config = await getJson(new URL("/api/config", url.origin));
  const revisions = answer.revisions as SiteProvenance["revisions"];
  const keyId = revisions.at(-1)?.site.keyId;
  const file = provenanceFileSchema.parse({
    format: "penchain-provenance/1",
    post: answer.post,
    page: answer.page,
    chainId: config.chainId,
    siteKey: keyId ? await actorKey(url.origin, keyId) : null,
    revisions,
  });
  return { file, checks: [await shownNow(url.origin, file)] };
}

/** Whether the post the site shows now is its latest revision (title, body and category). */
async function shownNow(origin: string, file: ProvenanceFile): Promise<Check> {
  const post = await getJson(new URL(`/api/posts/${file.post}`, origin));
  const latest = file.revisions.at(-1)?.canonical;
  const same =
    latest && post.title === latest.title && post.description === latest.body && post.category === latest.category;
  return same
    ? { ok: true, line: `the post the site shows now is revision ${file.revisions.at(-1)?.revision}` }
    : { ok: false, line: "the post the site shows now does not match its latest revision: it was changed since" };
}

/** Every post's provenance an archive holds (`posts/<name>/provenance.json`), or one such file. */
async function fromFile(path: string): Promise<ProvenanceFile[]> {
  if (fs.statSync(path).size > 1024 ** 3) throw new Error(`${path} is over 1 GiB`);
  const head = Buffer.alloc(4);
  const handle = fs.openSync(path, "r");
  fs.readSync(handle, head, 0, 4, 0);
  fs.closeSync(handle);
  if (head.toString("latin1") !== "PK\x03\x04")
    return [provenanceFileSchema.parse(JSON.parse(fs.readFileSync(path, "utf8")))];
  const entries = await readZipEntries(
    path,
    (name) => /^posts\/[^/]+\/provenance\.json$/.test(name),
    PROVENANCE_FILE_MAX_BYTES,
  );
  return [...entries].map(([name, bytes]) => {
    try {
      return provenanceFileSchema.parse(JSON.parse(bytes.toString("utf8")));
    } catch (error) {
      throw new Error(`${name} is not a post's provenance (${(error as Error).message.split("\n")[0]})`);
    }
  });
}

const mark = (check: Check) => (check.ok === true ? "✓" : check.ok === false ? "✗" : "!");

try {
  const read = isUrl(source)
    ? [await fromSite(source)]
    : (await fromFile(source)).map((file) => ({ file, checks: [] }));
  if (read.length === 0) throw new Error(`${source} holds no post's provenance (posts/<name>/provenance.json)`);
  const published = values.site
    ? await getJson(new URL("/ap/actors/site", values.site), "application/activity+json")
    : null;
  let failed = 0;
  let unchecked = 0;
  for (const { file, checks } of read) {
    for (const [index, site] of [file, ...file.imported].entries()) {
      console.log(`${index === 0 ? "Post" : "  imported from"} ${site.page}`);
      // A post imported, then not published here, has no revisions of this site's: only the earlier ones to check.
      const own = site.revisions.length === 0 && file.imported.length > 0 && index === 0;
      const all = own
        ? [{ ok: true, line: "no revisions on this site (not published here since it was imported)" } as Check]
        : [...(index === 0 ? checks : []), ...(await checkPost(site, { rpc: values.rpc }))];
      if (!isUrl(source) && site.siteKey) {
        const names =
          published &&
          [published.assertionMethod]
            .flat()
            .some(
              (method) =>
                multikeyX((method as { publicKeyMultibase?: unknown })?.publicKeyMultibase) === site.siteKey?.x,
            );
        all.push(
          published === null
            ? {
                ok: true,
                line: `the site's key is the one the archive carries (${site.siteKey.id}): pass --site URL to compare it with what the site publishes now`,
              }
            : names
              ? { ok: true, line: `the archive's key is the one ${values.site} publishes now` }
              : { ok: false, line: `the archive's key is not one ${values.site} publishes now` },
        );
      }
      for (const check of all) {
        if (check.ok === false) failed++;
        if (check.ok === "unchecked") unchecked++;
        (check.ok === false ? console.error : console.log)(`${mark(check)} ${check.line}`);
      }
    }
  }
  if (failed > 0) {
    console.error(`✗ ${failed} check${failed === 1 ? "" : "s"} failed`);
    process.exit(1);
  }
  if (unchecked > 0) {
    console.log(
      `! every check passed but ${unchecked} signature${unchecked === 1 ? "" : "s"} only the chain can check: pass --rpc URL`,
    );
    process.exit(3);
  }
  console.log("✓ every revision checked");
} catch (error) {
  console.error(`Could not check the post: ${(error as Error).message}`);
  process.exit(2);
}
