import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Db } from "../../../src/server/db/client.ts";
import { categories, comments, follows, payments, posts, reactions, users } from "../../../src/server/db/schema.ts";
import { insertCategory, insertPost, insertUser } from "../../support/builders.ts";
import { databaseTargets } from "../../support/databases.ts";

/** The database itself keeps the data honest, whatever the application code does. */
describe.each(databaseTargets)("schema constraints on $name", (target) => {
  let database: Database;
  let db: Db;
  beforeAll(async () => {
    database = await target.open();
    db = database.db;
  });
  afterAll(() => database.close());

  // Drizzle wraps driver errors; the constraint name is on the cause.
  const rejects = (promise: Promise<unknown>, constraint: string) =>
    expect(promise).rejects.toSatisfy((error: Error & { cause?: { constraint?: string; message?: string } }) =>
      [error.cause?.constraint, error.cause?.message, error.message].some((text) => text?.includes(constraint)),
    );

  it("refuses a second account with the same e-mail in another case", async () => {
    await insertUser(db, { email: "Grace@Example.com" });
    await rejects(insertUser(db, { email: "grace@example.COM" }), "users_email_lower_key");
  });

  it("refuses one verified wallet on two accounts, but allows unverified claims", async () => {
    const wallet = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    await insertUser(db, { walletAddress: wallet });
    await insertUser(db, { walletAddress: wallet, walletVerifiedAt: new Date() });
    await insertUser(db, { walletAddress: wallet });
    await rejects(
      insertUser(db, { walletAddress: wallet.toLowerCase(), walletVerifiedAt: new Date() }),
      "users_verified_wallet_key",
    );
  });

  it("keeps a post's reaction and comment counts exact through bulk inserts, updates and deletes", async () => {
    const author = await insertUser(db);
    const post = await insertPost(db, { userId: author.id, categoryId: (await insertCategory(db, author.id)).id });
    const readers = await Promise.all([1, 2, 3, 4].map(() => insertUser(db)));
    const counts = async () => {
      const [row] = await db
        .select({ likes: posts.likesCount, dislikes: posts.disLikesCount, comments: posts.commentsCount })
        .from(posts)
        .where(eq(posts.id, post.id));
      return row;
    };
    await db.insert(reactions).values(
      readers.map((reader, i) => ({
        postId: post.id,
        userId: reader.id,
        kind: i < 3 ? ("like" as const) : ("dislike" as const),
      })),
    );
    expect(await counts()).toEqual({ likes: 3, dislikes: 1, comments: 0 });
    await db.update(reactions).set({ kind: "dislike" }).where(eq(reactions.postId, post.id));
    expect(await counts()).toEqual({ likes: 0, dislikes: 4, comments: 0 });
    await db
      .insert(comments)
      .values(readers.map((reader) => ({ postId: post.id, userId: reader.id, description: "c" })));
    await db.delete(reactions).where(eq(reactions.userId, readers[0]?.id ?? ""));
    await db.delete(comments).where(eq(comments.userId, readers[1]?.id ?? ""));
    expect(await counts()).toEqual({ likes: 0, dislikes: 3, comments: 3 });
  });

  it("refuses duplicate and self follows", async () => {
    const [a, b] = [await insertUser(db), await insertUser(db)];
    await db.insert(follows).values({ followerId: a.id, followeeId: b.id });
    await rejects(
      db.insert(follows).values({ followerId: a.id, followeeId: b.id }),
      "follows_follower_id_followee_id_pk",
    );
    await rejects(db.insert(follows).values({ followerId: a.id, followeeId: a.id }), "follows_not_self");
  });

  it("keeps one reaction per user and post", async () => {
    const author = await insertUser(db);
    const post = await insertPost(db, { userId: author.id, categoryId: (await insertCategory(db, author.id)).id });
    await db.insert(reactions).values({ postId: post.id, userId: author.id, kind: "like" });
    await rejects(
      db.insert(reactions).values({ postId: post.id, userId: author.id, kind: "dislike" }),
      "reactions_post_id_user_id_pk",
    );
  });

  it("refuses category titles that differ only in case", async () => {
    const admin = await insertUser(db);
    await insertCategory(db, admin.id, "Blockchain");
    await rejects(insertCategory(db, admin.id, "BLOCKCHAIN"), "categories_title_lower_key");
  });

  it("refuses to delete a category still used by posts", async () => {
    const author = await insertUser(db);
    const category = await insertCategory(db, author.id);
    await insertPost(db, { userId: author.id, categoryId: category.id });
    await rejects(db.delete(categories).where(eq(categories.id, category.id)), "posts_category_id_categories_id_fk");
  });

  it("deletes a post's comments and reactions with it", async () => {
    const author = await insertUser(db);
    const post = await insertPost(db, { userId: author.id, categoryId: (await insertCategory(db, author.id)).id });
    await db.insert(comments).values({ postId: post.id, userId: author.id, description: "first" });
    await db.insert(reactions).values({ postId: post.id, userId: author.id, kind: "like" });
    await db.delete(posts).where(eq(posts.id, post.id));
    expect(await db.select().from(comments).where(eq(comments.postId, post.id))).toEqual([]);
    expect(await db.select().from(reactions).where(eq(reactions.postId, post.id))).toEqual([]);
  });

  it("lets a transaction hash be claimed once per chain, whatever its case", async () => {
    const user = await insertUser(db);
    const hash = `0x${"ab".repeat(32)}`;
    const payment = {
      purpose: "featured" as const,
      payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      recipient: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      amountWei: "10000000000000000",
      blockNumber: 1n,
      confirmations: 1,
      userId: user.id,
    };
    await db.insert(payments).values({ ...payment, chainId: 31337, txHash: hash });
    await db.insert(payments).values({ ...payment, chainId: 1, txHash: hash });
    await rejects(
      db.insert(payments).values({ ...payment, chainId: 31337, txHash: hash.toUpperCase().replace("0X", "0x") }),
      "payments_chain_tx_key",
    );
  });

  it("keeps wei amounts beyond 2^64 exactly", async () => {
    const user = await insertUser(db);
    const amount = (2n ** 100n + 7n).toString();
    const [row] = await db
      .insert(payments)
      .values({
        chainId: 5,
        txHash: `0x${"cd".repeat(32)}`,
        purpose: "tip",
        payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        recipient: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        amountWei: amount,
        blockNumber: 2n ** 40n,
        confirmations: 3,
        userId: user.id,
      })
      .returning();
    expect(row?.amountWei).toBe(amount);
    expect(row?.blockNumber).toBe(2n ** 40n);
  });

  it("deletes a user's rows everywhere when the user is deleted", async () => {
    const user = await insertUser(db);
    const other = await insertUser(db);
    await db.insert(follows).values({ followerId: user.id, followeeId: other.id });
    await db.delete(users).where(eq(users.id, user.id));
    expect(await db.select().from(follows).where(eq(follows.followerId, user.id))).toEqual([]);
  });
});
