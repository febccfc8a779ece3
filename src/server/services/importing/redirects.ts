import { and, eq } from "drizzle-orm";
import { screenPathAt } from "#shared/screens.ts";
import { postRedirects, posts } from "../../db/schema.ts";
import type { Deps } from "../core/deps.ts";
import { isReachable } from "../core/post-queries.ts";
import { normalPath } from "./items.ts";

/** Where the server answers whatever routes it registers (the fediverse's only when it federates): never an old address. */
const OWN_PREFIXES = ["/api", "/assets", "/uploads", "/ap", "/.well-known", "/nodeinfo"];
const OWN_FILES = /^\/(?:favicon\.ico|robots\.txt|rss\.xml|sitemap(?:-[^/]*)?\.xml|index\.html)$/;

/** A path as a router may read it: dot segments resolved, decoded, one slash at a time, any case, no trailing slash. */
function readings(path: string) {
  const resolved = URL.parse(path, "https://site.invalid")?.pathname ?? path;
  let decoded = resolved;
  try {
    decoded = decodeURIComponent(resolved);
  } catch {}
  return [path, resolved, decoded].map((each) =>
    each
      .toLowerCase()
      .replace(/\/{2,}/g, "/")
      .replace(/\/+$/, ""),
  );
}

/**
 * An address of this site's own: a screen, a route or a file the server serves. An old address that is one would
 * take it over for everyone, so it is refused when imported and never answered.
 */
export function isOwnAddress(path: string) {
  return readings(path).some(
    (each) =>
      each === "" ||
      screenPathAt(each) !== undefined ||
      OWN_FILES.test(each) ||
      OWN_PREFIXES.some((prefix) => each === prefix || each.startsWith(`${prefix}/`)),
  );
}

/** An imported post's old address (`/2019/05/my-post/`), answered with its new one while the post is public. */
export async function redirectFor(deps: Pick<Deps, "db">, pathname: string) {
  const path = normalPath(pathname);
  if (!path || path.length > 500 || isOwnAddress(path)) return null;
  const [row] = await deps.db
    .select({ postId: postRedirects.postId })
    .from(postRedirects)
    .innerJoin(posts, and(eq(posts.id, postRedirects.postId), isReachable))
    .where(eq(postRedirects.path, path));
  return row ? `/posts/${row.postId}` : null;
}
