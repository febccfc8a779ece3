// `npm run lookup -- <acct:handle@host | https://…>`: finds an actor or object on the fediverse and prints it as
// JSON-LD, the way Mastodon's search box (and `fedify lookup` of @fedify/cli) resolves it: WebFinger for `acct:`,
// then the ActivityStreams document. `--allow-private` lets it reach local and private addresses (a Penchain started
// with FEDERATION=on on localhost). @fedify/cli itself downloads its binary from GitHub when installed; this needs
// nothing but the project's own Fedify.
import { getDocumentLoader } from "@fedify/fedify";
import { lookupObject } from "@fedify/fedify/vocab";

const args = process.argv.slice(2);
const allowPrivateAddress = args.includes("--allow-private");
const query = args.find((arg) => !arg.startsWith("--"));
if (!query) {
  console.error("usage: npm run lookup -- [--allow-private] <acct:handle@host | URL>");
  process.exit(2);
}
const documentLoader = getDocumentLoader({ allowPrivateAddress });
// Fedify reads `allowPrivateAddress` for the WebFinger step too, though its type does not list it.
const options = { documentLoader, allowPrivateAddress };
const found = await lookupObject(query, options);
if (!found) {
  console.error(`Nothing found for ${query}`);
  process.exit(1);
}
console.log(JSON.stringify(await found.toJsonLd({ format: "compact" }), null, 2));
