import type { CanonicalRevision } from "#shared/provenance.ts";
import { escapeHtml } from "../../infra/html.ts";
import { diffLines, MAX_CELLS, paragraphsOf } from "./diff.ts";
import type { Provenance } from "./revisions.ts";

// The provenance page (/posts/{id}/provenance): plain HTML, readable without script, every value escaped.

export const NOT_SIGNED_MATCH = "does not match what its author signed";

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
const code = (text: string) => `<code>${escapeHtml(text)}</code>`;
const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:0 auto;padding:1rem;color:#1a202c;background:#fff}
a{overflow-wrap:anywhere}code,pre{font:13px/1.4 ui-monospace,monospace;overflow-wrap:anywhere;white-space:pre-wrap}
pre{background:#f7fafc;padding:.5rem;border:1px solid #e2e8f0}
.verdict{padding:.75rem 1rem;border:2px solid}.ok{border-color:#2f855a}.bad{border-color:#c53030;background:#fff5f5}
ins{background:#e6ffed;text-decoration:none;display:block}del{background:#ffeef0;display:block}
.same{display:block;color:#4a5568}section{border-top:1px solid #e2e8f0;margin-top:1.5rem}
@media (prefers-color-scheme:dark){body{background:#1a202c;color:#e2e8f0}a{color:#90cdf4}pre{background:#2d3748;border-color:#4a5568}
ins{background:#22543d}del{background:#742a2a}.same{color:#a0aec0}.bad{background:#3b1f1f}}`;

function verdict(provenance: Provenance) {
  if (provenance.latest === null)
    return `<p class="verdict bad">No revision of this post is kept yet: it was published before revisions were kept, and it will have one when it is next edited.</p>`;
  if (!provenance.matches) {
    const what = [
      ...provenance.differs.map((field) => `its ${escapeHtml(field)} differs from revision ${provenance.latest}`),
      ...provenance.problems.map(escapeHtml),
    ];
    return `<p class="verdict bad"><strong>This post ${NOT_SIGNED_MATCH}.</strong> The post as stored now is not its latest kept revision: ${what.join("; ")}.</p>`;
  }
  if (provenance.signer)
    return `<p class="verdict ok"><strong>Signed by ${escapeHtml(short(provenance.signer))}, revision ${provenance.latest}.</strong> The post as stored now is exactly revision ${provenance.latest}, which its author's wallet ${code(provenance.signer)} signed.</p>`;
  return `<p class="verdict ok"><strong>Not signed by its author.</strong> The post as stored now is exactly revision ${provenance.latest}, which the site signed; its author has not signed it with their wallet.</p>`;
}

/**
 * What one page may spend on diffs and canonical JSON, newest revision first: a post may have any number of
 * revisions of up to a full body each, and the page is rendered on the request that misses the cache.
 */
const PAGE_BUDGET = { cells: 8_000_000, chars: 2_000_000 };
type Budget = { cells: number; chars: number };

export const NOT_SHOWN = "Its text and what changed are not shown here, to keep this page short";

function changes(before: CanonicalRevision | undefined, after: CanonicalRevision, budget: Budget) {
  if (!before) return "<p>The first revision.</p>";
  const fields: string[] = [];
  if (before.title !== after.title)
    fields.push(`<p>Title: <del>${escapeHtml(before.title)}</del><ins>${escapeHtml(after.title)}</ins></p>`);
  if (before.category !== after.category)
    fields.push(`<p>Category: <del>${escapeHtml(before.category)}</del><ins>${escapeHtml(after.category)}</ins></p>`);
  if (before.cover !== after.cover) fields.push("<p>The cover image changed.</p>");
  if (before.author.handle !== after.author.handle)
    fields.push(`<p>The author's handle changed to ${escapeHtml(after.author.handle)}.</p>`);
  const from = paragraphsOf(before.body);
  const to = paragraphsOf(after.body);
  budget.cells -= Math.min(from.length * to.length, MAX_CELLS);
  const lines = diffLines(from, to);
  const changed = lines.some((line) => line.kind !== "same");
  const body = changed
    ? `<div aria-label="What changed in the text">${lines
        .map((line) =>
          line.kind === "added"
            ? `<ins>+ ${escapeHtml(line.text)}</ins>`
            : line.kind === "removed"
              ? `<del>− ${escapeHtml(line.text)}</del>`
              : `<span class="same">  ${escapeHtml(line.text)}</span>`,
        )
        .join("\n")}</div>`
    : "<p>The text did not change.</p>";
  budget.chars -= body.length;
  return `<h3>What changed since revision ${before.revision}</h3>${fields.join("")}${body}`;
}

function revisionSection(provenance: Provenance, index: number, budget: Budget, apiUrl: string) {
  const revision = provenance.revisions[index] as Provenance["revisions"][number];
  const before = provenance.revisions[index - 1]?.canonical;
  const author = revision.author
    ? `<p>Signed by its author's wallet ${code(revision.author.signer)} at ${when(revision.author.signedAt)}:<br>${code(revision.author.signature)}</p>`
    : revision.withdrawn
      ? `<p>Signed at ${when(revision.withdrawn.signedAt)} by ${code(revision.withdrawn.signer)}, a wallet its author has unlinked since: that signature no longer counts as theirs.</p>`
      : "<p>Not signed by its author.</p>";
  const proof = revision.site.proof as { created?: string; proofValue?: string; verificationMethod?: string };
  return `<section id="revision-${revision.revision}">
<h2>Revision ${revision.revision}, ${when(revision.publishedAt)}</h2>
<p>Digest (SHA-256 of its canonical JSON): ${code(revision.digest)}<br>Previous: ${revision.previous ? code(revision.previous) : "none, the first"}</p>
${author}
<p>The site's proof (FEP-8b32, eddsa-jcs-2022) by ${code(String(proof.verificationMethod ?? revision.site.keyId))}, ${escapeHtml(String(proof.created ?? ""))}:<br>${code(String(proof.proofValue ?? ""))}</p>
${budget.cells > 0 && budget.chars > 0 ? details(before, revision.canonical, budget) : `<p>${NOT_SHOWN}: its canonical JSON is in <a href="${escapeHtml(apiUrl)}">the provenance answer</a>.</p>`}
</section>`;
}

function details(before: CanonicalRevision | undefined, after: CanonicalRevision, budget: Budget) {
  const json = escapeHtml(JSON.stringify(after, null, 2));
  budget.chars -= json.length;
  return `${changes(before, after, budget)}
<details><summary>Its canonical JSON</summary><pre>${json}</pre></details>`;
}

function howToCheck(provenance: Provenance, chainId: number, apiUrl: string) {
  const key = provenance.siteKey;
  return `<section id="how-to-check"><h2>How to check it yourself</h2>
<ol>
<li>Fetch every revision with its canonical JSON, signatures and proofs: <a href="${escapeHtml(apiUrl)}">${escapeHtml(apiUrl)}</a>.</li>
<li>Each digest is the SHA-256 (hex) of the revision's canonical JSON serialised by RFC 8785 (JCS); each revision names the digest before it (<code>previous</code>), so no revision can be changed, left out or put between others unseen.</li>
<li>The author's signature is EIP-712 typed data: domain ${code(`{ name: "Penchain", version: "1", chainId: ${chainId} }`)}, type ${code("Revision(string post,uint256 revision,bytes32 digest,bytes32 previous)")}, message ${code(`{ post, revision, digest: "0x" + digest, previous: "0x" + previous (or 32 zero bytes) }`)}. Check it with viem's <code>verifyTypedData</code> (a smart account needs the chain), or run <code>npm run verify-post -- ${escapeHtml(provenance.page.replace(/\/provenance$/, ""))}</code>.</li>
<li>The site's proof signs the ActivityPub Article the fediverse is sent (<code>site.document</code>): Ed25519 over SHA-256(JCS(the proof without <code>proofValue</code>, with the document's <code>@context</code>)) followed by SHA-256(JCS(the document)); <code>proofValue</code> is base58btc. ${key ? `The key ${code(key.id)} is the site actor's: ${code(JSON.stringify(key.publicKeyJwk))}.` : ""}</li>
</ol></section>`;
}

/** The provenance page of a published post: the verdict, how to check it, then each revision, newest first. */
export function renderProvenancePage(
  provenance: Provenance,
  site: { siteName: string; chainId: number; publicUrl: string },
) {
  const postUrl = provenance.page.replace(/\/provenance$/, "");
  const apiUrl = new URL(`/api/posts/${provenance.post}/provenance`, `${site.publicUrl}/`).href;
  const budget = { ...PAGE_BUDGET };
  const revisions = provenance.revisions
    .map((_revision, index) => index)
    .reverse()
    .map((index) => revisionSection(provenance, index, budget, apiUrl));
  const title = `Provenance of “${provenance.title}”`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${title} | ${site.siteName}`)}</title>
<meta name="description" content="${escapeHtml(`Every revision of “${provenance.title}”, its author's signatures and the site's proofs.`)}">
<link rel="canonical" href="${escapeHtml(provenance.page)}">
<link rel="alternate" type="application/json" href="${escapeHtml(apiUrl)}">
<style>${STYLE}</style>
</head>
<body>
<main>
<p><a href="${escapeHtml(postUrl)}">← The post</a> · ${escapeHtml(site.siteName)}</p>
<h1>${escapeHtml(title)}</h1>
${verdict(provenance)}
${howToCheck(provenance, site.chainId, apiUrl)}
${revisions.join("\n")}
</main>
</body>
</html>
`;
}
