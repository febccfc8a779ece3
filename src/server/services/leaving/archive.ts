import fs from "node:fs";
import { and, asc, eq, gt, or, sql } from "drizzle-orm";
import { ZipFile } from "yazl";
import {
  PROVENANCE_FORMAT,
  type ProvenanceFile,
  provenanceFileSchema,
  type SiteProvenance,
} from "#shared/schemas/provenance-file.ts";
import { slugify } from "#shared/text.ts";
import {
  categories,
  comments,
  emailSubscriptions,
  federationKeys,
  follows,
  importedProvenance,
  payments,
  postRevisions,
  posts,
  remoteFollowers,
  rewards,
  users,
} from "../../db/schema.ts";
import { csvField } from "../../infra/csv.ts";
import { escapeHtml } from "../../infra/html.ts";
import type { Deps } from "../core/deps.ts";
import { SITE_ACTOR } from "../core/federation-queue.ts";
import { isReachable } from "../core/post-queries.ts";

/** Posts are read this many at a time: an archive of thousands never holds them all. */
const PAGE = 100;
/** How many bytes of images may wait in memory for the file to take them. */
const IN_FLIGHT_BYTES = 8 * 1024 * 1024;

/** A name safe in any file system: lower-case words of the title, then the id that makes it unique. */
export const slugOf = (title: string, id: string) => `${slugify(title, 60) || "post"}-${id.slice(0, 8)}`;

let markdownWriter: Promise<(front: object, html: string) => string> | undefined;
/** A post as Markdown with YAML front matter; Turndown (with its DOM) and yaml load with the first archive. */
const markdownOf = () => {
  markdownWriter ??= Promise.all([import("turndown"), import("yaml")]).then(
    ([{ default: Turndown }, { stringify }]) => {
      const turndown = new Turndown({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
      return (front, html) => `---\n${stringify(front)}---\n\n${turndown.turndown(html)}\n`;
    },
  );
  return markdownWriter;
};

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
const iso = (date: Date | null) => date?.toISOString() ?? null;

type PostRow = Awaited<ReturnType<typeof postsPage>>[number];

function postsPage(deps: Pick<Deps, "db">, userId: string, after: string | null) {
  return deps.db
    .select({
      id: posts.id,
      title: posts.title,
      description: posts.description,
      status: posts.status,
      image: posts.image,
      isFeatured: posts.isFeatured,
      publishedAt: posts.publishedAt,
      createdAt: posts.createdAt,
      updatedAt: posts.updatedAt,
      category: categories.title,
    })
    .from(posts)
    .innerJoin(categories, eq(categories.id, posts.categoryId))
    .where(and(eq(posts.userId, userId), after ? gt(posts.id, after) : undefined))
    .orderBy(asc(posts.id))
    .limit(PAGE);
}

/** Every post of the user, a page at a time. */
async function* eachPost(deps: Pick<Deps, "db">, userId: string) {
  let after: string | null = null;
  for (;;) {
    const page = await postsPage(deps, userId, after);
    yield* page;
    if (page.length < PAGE) return;
    after = page.at(-1)?.id ?? null;
  }
}

/** What an archive tells about itself, in words. */
const README = `Your Penchain data

profile.json          your profile as it is now
posts/<name>/         each post: index.html, index.md (Markdown with front matter) and its images;
                      provenance.json: its revisions, your wallet's signatures and the site's proofs
                      (check them with Penchain's npm run verify-post -- <this zip>)
ghost.json            your posts in Ghost's import format (Ghost Admin > Settings > Import/Export)
comments.json         the comments you wrote (on a post you can no longer open, without its title)
followers.json        who follows you, here and on the fediverse
following.json        whom you follow
subscribers.csv       the addresses subscribed to your posts by e-mail
payments.json         featured fees and tips you paid, tips and rewards you received, with their transactions
`;

/**
 * Writes a user's archive as a zip at `file`: every post as HTML and as Markdown with front matter with its images
 * (from storage, re-pointed to the copies beside it), their comments, followers and following, e-mail subscribers,
 * payments with their transaction hashes, the profile, and a Ghost JSON of the posts. Files are added and written
 * out as they are made; `onPost` hears each post done.
 */
export async function writeArchive(
  deps: Pick<Deps, "db" | "storage" | "config">,
  userId: string,
  file: string,
  onPost: (done: number) => void = () => {},
) {
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new Error("no such user");
  const zip = new ZipFile();
  const out = fs.createWriteStream(file);
  const written = new Promise<void>((resolve, reject) => {
    out.on("close", resolve).on("error", reject);
    zip.outputStream.on("error", reject).pipe(out);
  });
  // Images are most of an archive: no more than a few megabytes of them wait in memory to be written.
  let imageBytes = 0;
  const stored = async (url: string, name: string) => {
    const added = await addStored(deps, zip, url, name);
    imageBytes += added;
    while (imageBytes - out.bytesWritten > IN_FLIGHT_BYTES) await new Promise((resolve) => setTimeout(resolve, 2));
    return added > 0;
  };
  const base = deps.config.publicUrl;
  zip.addBuffer(Buffer.from(README), "README.txt");
  zip.addBuffer(
    json({
      id: user.id,
      firstName: user.firstName,
      lastName: user.lastName,
      handle: user.handle,
      email: user.email,
      bio: user.bio,
      profilePhoto: user.profilePhoto ? `profile/${fileName(user.profilePhoto)}` : null,
      walletAddress: user.walletAddress,
      walletVerifiedAt: iso(user.walletVerifiedAt),
      accountVerified: user.isAccountVerified,
      joinedAt: iso(user.createdAt),
      profileUrl: `${base}/profile/${user.id}`,
    }),
    "profile.json",
  );
  if (user.profilePhoto) await stored(user.profilePhoto, `profile/${fileName(user.profilePhoto)}`);

  const ghostPosts: object[] = [];
  const ghostTags = new Map<string, string>();
  const ghostPostTags: object[] = [];
  let done = 0;
  const provenance = await provenanceWriter(deps);
  for await (const post of eachPost(deps, userId)) {
    const ghost = await addPost(zip, post, base, stored);
    const kept = await provenance(post.id);
    if (kept) zip.addBuffer(json(kept), `posts/${slugOf(post.title, post.id)}/provenance.json`);
    ghostPosts.push(ghost);
    const tagId = ghostTags.get(post.category) ?? `tag-${ghostTags.size + 1}`;
    ghostTags.set(post.category, tagId);
    ghostPostTags.push({ post_id: post.id, tag_id: tagId, sort_order: 0 });
    onPost(++done);
  }
  zip.addBuffer(json(ghostExport(user, ghostPosts, ghostTags, ghostPostTags)), "ghost.json");
  zip.addBuffer(json(await commentsOf(deps, userId, base)), "comments.json");
  zip.addBuffer(json(await followersOf(deps, userId, base)), "followers.json");
  zip.addBuffer(json(await followingOf(deps, userId, base)), "following.json");
  zip.addBuffer(Buffer.from(await subscribersCsvOf(deps, userId)), "subscribers.csv");
  zip.addBuffer(json(await paymentsOf(deps, userId)), "payments.json");
  zip.end();
  await written;
  return { posts: done };
}

/**
 * A post's provenance file (docs/provenance.md): its revisions here with their signatures and proofs, the chain id
 * they were signed for and the site actor's public key, with what an import brought from earlier sites; null for a
 * post that has none.
 */
async function provenanceWriter(deps: Pick<Deps, "db" | "config">) {
  const [key] = await deps.db
    .select({ publicKey: federationKeys.publicKey })
    .from(federationKeys)
    .where(and(eq(federationKeys.actor, SITE_ACTOR), eq(federationKeys.algorithm, "Ed25519")));
  const x = (key?.publicKey as { x?: string } | undefined)?.x ?? null;
  return async (postId: string): Promise<ProvenanceFile | null> => {
    const [rows, [imported]] = await Promise.all([
      deps.db.select().from(postRevisions).where(eq(postRevisions.postId, postId)).orderBy(asc(postRevisions.revision)),
      deps.db
        .select({ document: importedProvenance.document })
        .from(importedProvenance)
        .where(eq(importedProvenance.postId, postId)),
    ]);
    const earlier = imported ? provenanceFileSchema.safeParse(imported.document) : null;
    if (rows.length === 0 && !earlier?.success) return null;
    const keyIdOf = (proof: unknown) => String((proof as { verificationMethod?: unknown }).verificationMethod ?? "");
    const latestKey = rows.length > 0 ? keyIdOf(rows.at(-1)?.siteProof) : null;
    const { imported: before = [], ...from } = earlier?.success ? earlier.data : {};
    return {
      format: PROVENANCE_FORMAT,
      post: postId,
      page: `${deps.config.publicUrl}/posts/${postId}/provenance`,
      chainId: deps.config.chain.id,
      siteKey: latestKey && x ? { id: latestKey, x } : null,
      revisions: rows.map((row) => ({
        revision: row.revision,
        digest: row.digest,
        previous: row.previous,
        publishedAt: row.publishedAt.toISOString(),
        canonical: row.canonical as Record<string, unknown>,
        author:
          row.authorSignature && row.authorSigner && row.authorSignedAt
            ? { signature: row.authorSignature, signer: row.authorSigner, signedAt: row.authorSignedAt.toISOString() }
            : null,
        site: {
          proof: row.siteProof as Record<string, unknown>,
          keyId: keyIdOf(row.siteProof),
          document: row.siteDocument as Record<string, unknown>,
        },
      })),
      imported: earlier?.success ? [from as SiteProvenance, ...before] : [],
    };
  };
}

/** The last part of an address as a file name: no path, nothing but letters, digits, dots, dashes and underscores. */
const fileName = (url: string) => {
  const name = (
    url
      .replace(/[?#].*$/, "")
      .split("/")
      .pop() ?? ""
  ).replace(/[^A-Za-z0-9._-]/g, "_");
  return /^\.*$/.test(name) ? "image" : name;
};

/**
 * A stored file into the zip, streamed (images are compressed already); answers its size, 0 when it was not there.
 */
async function addStored(deps: Pick<Deps, "storage">, zip: ZipFile, url: string, name: string) {
  const file = await deps.storage.open(url);
  if (!file) return 0;
  zip.addReadStream(file.stream, name, { compress: false, ...(file.size ? { size: file.size } : {}) });
  return file.size;
}

/** One post: its images, then index.html and index.md pointing at them; answers its Ghost entry. */
async function addPost(
  zip: ZipFile,
  post: PostRow,
  base: string,
  stored: (url: string, name: string) => Promise<boolean>,
) {
  const folder = `posts/${slugOf(post.title, post.id)}`;
  let body = post.description;
  // Images of ours in the body (and the cover) are copied beside the post, and the body points at the copies.
  const copies = new Map<string, string>();
  const sources = [...post.description.matchAll(/<img\b[^>]*?\bsrc="([^"]+)"/g)].map((match) => match[1] ?? "");
  for (const src of [...(post.image ? [post.image] : []), ...sources]) {
    if (copies.has(src)) continue;
    const name = `images/${fileName(src)}`;
    if (await stored(src.replace(/&amp;/g, "&"), `${folder}/${name}`)) copies.set(src, name);
  }
  for (const [src, name] of copies) body = body.split(`src="${src}"`).join(`src="${name}"`);
  const cover = post.image ? (copies.get(post.image) ?? post.image) : null;
  const url = `${base}/posts/${post.id}`;
  const front = {
    title: post.title,
    date: iso(post.publishedAt),
    updated: iso(post.updatedAt),
    status: post.status,
    category: post.category,
    featured: post.isFeatured,
    cover,
    url,
    id: post.id,
  };
  zip.addBuffer(Buffer.from((await markdownOf())(front, body)), `${folder}/index.md`);
  zip.addBuffer(
    Buffer.from(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(post.title)}</title></head>
<body><article><h1>${escapeHtml(post.title)}</h1>
<p>${escapeHtml(post.category)} · ${escapeHtml(iso(post.publishedAt) ?? "draft")} · <a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>
${cover ? `<img src="${escapeHtml(cover)}" alt="">` : ""}
${body}
</article></body></html>
`),
    `${folder}/index.html`,
  );
  // Ghost takes HTML and converts it; images keep their public addresses, which Ghost's importer can fetch.
  const absolute = (src: string | null) => (src?.startsWith("/") ? `${base}${src}` : src);
  return {
    id: post.id,
    uuid: post.id,
    title: post.title,
    slug: slugOf(post.title, post.id),
    html: post.description.replace(/(<img\b[^>]*?\bsrc=")(\/[^"]+)"/g, (_all, start, src) => `${start}${base}${src}"`),
    feature_image: absolute(post.image),
    featured: post.isFeatured ? 1 : 0,
    type: "post",
    status: post.status === "scheduled" ? "scheduled" : post.status === "published" ? "published" : "draft",
    visibility: "public",
    created_at: iso(post.createdAt),
    updated_at: iso(post.updatedAt),
    published_at: iso(post.publishedAt),
    author_id: "1",
    canonical_url: url,
  };
}

/** Ghost's export shape (`db[0].meta` and `data`), which its importer reads: posts, their tags and the author. */
function ghostExport(
  user: typeof users.$inferSelect,
  ghostPosts: object[],
  tags: Map<string, string>,
  postsTags: object[],
) {
  return {
    db: [
      {
        meta: { exported_on: Date.now(), version: "5.0.0" },
        data: {
          posts: ghostPosts,
          tags: [...tags].map(([name, id]) => ({ id, name, slug: slugify(name, 60) || id })),
          posts_tags: postsTags,
          users: [
            {
              id: "1",
              name: `${user.firstName} ${user.lastName}`,
              slug: user.handle,
              email: user.email,
              bio: user.bio || null,
            },
          ],
          posts_authors: ghostPosts.map((post) => ({ post_id: (post as { id: string }).id, author_id: "1" })),
        },
      },
    ],
  };
}

/**
 * The user's comments, each with its post's title and address only while the user could open that post on the site
 * now (it is public, or theirs): another author's post taken back to a draft, or hidden, leaks no title it has since.
 */
async function commentsOf(deps: Pick<Deps, "db">, userId: string, base: string) {
  const readable = or(isReachable, eq(posts.userId, userId));
  const rows = await deps.db
    .select({
      id: comments.id,
      text: comments.description,
      createdAt: comments.createdAt,
      postId: posts.id,
      postTitle: sql<string | null>`case when ${readable} then ${posts.title} end`,
      importedAuthor: comments.importedAuthor,
    })
    .from(comments)
    .innerJoin(posts, eq(posts.id, comments.postId))
    .where(eq(comments.userId, userId))
    .orderBy(asc(comments.createdAt));
  return rows.map((row) => ({
    ...row,
    createdAt: iso(row.createdAt),
    postUrl: row.postTitle === null ? null : `${base}/posts/${row.postId}`,
  }));
}

async function followersOf(deps: Pick<Deps, "db">, userId: string, base: string) {
  const [local, fediverse] = await Promise.all([
    deps.db
      .select({
        id: users.id,
        name: sql<string>`${users.firstName} || ' ' || ${users.lastName}`,
        since: follows.createdAt,
      })
      .from(follows)
      .innerJoin(users, eq(users.id, follows.followerId))
      .where(eq(follows.followeeId, userId)),
    deps.db
      .select({ account: remoteFollowers.followerUri, since: remoteFollowers.createdAt })
      .from(remoteFollowers)
      .where(eq(remoteFollowers.actor, userId)),
  ]);
  return {
    here: local.map((row) => ({ ...row, since: iso(row.since), profileUrl: `${base}/profile/${row.id}` })),
    fediverse: fediverse.map((row) => ({ ...row, since: iso(row.since) })),
  };
}

async function followingOf(deps: Pick<Deps, "db">, userId: string, base: string) {
  const rows = await deps.db
    .select({
      id: users.id,
      name: sql<string>`${users.firstName} || ' ' || ${users.lastName}`,
      since: follows.createdAt,
    })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.followeeId))
    .where(eq(follows.followerId, userId));
  return rows.map((row) => ({ ...row, since: iso(row.since), profileUrl: `${base}/profile/${row.id}` }));
}

async function subscribersCsvOf(deps: Pick<Deps, "db">, userId: string) {
  const rows = await deps.db
    .select({
      email: emailSubscriptions.email,
      since: emailSubscriptions.confirmedAt,
      source: emailSubscriptions.source,
    })
    .from(emailSubscriptions)
    .where(and(eq(emailSubscriptions.authorId, userId), eq(emailSubscriptions.status, "active")))
    .orderBy(asc(emailSubscriptions.email));
  const lines = rows.map((row) => [row.email, iso(row.since) ?? "", row.source].map(csvField).join(","));
  return `${["email,subscribed_at,source", ...lines].join("\r\n")}\r\n`;
}

async function paymentsOf(deps: Pick<Deps, "db">, userId: string) {
  const columns = {
    purpose: payments.purpose,
    chainId: payments.chainId,
    txHash: payments.txHash,
    from: payments.payer,
    to: payments.recipient,
    amountWei: payments.amountWei,
    status: payments.status,
    postId: payments.postId,
    at: payments.createdAt,
  };
  const [paid, received, rewarded] = await Promise.all([
    deps.db.select(columns).from(payments).where(eq(payments.userId, userId)).orderBy(asc(payments.createdAt)),
    deps.db
      .select(columns)
      .from(payments)
      .where(and(eq(payments.recipientId, userId), eq(payments.purpose, "tip")))
      .orderBy(asc(payments.createdAt)),
    deps.db
      .select({ txHash: payments.txHash, amountWei: payments.amountWei, at: rewards.createdAt })
      .from(rewards)
      .leftJoin(payments, eq(payments.id, rewards.paymentId))
      .where(eq(rewards.userId, userId)),
  ]);
  const dated = <T extends { at: Date | null }>(rows: T[]) => rows.map((row) => ({ ...row, at: iso(row.at) }));
  return { paid: dated(paid), tipsReceived: dated(received), rewardsReceived: dated(rewarded) };
}
