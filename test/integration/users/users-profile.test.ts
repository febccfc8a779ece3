import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profileSchema } from "#shared/schemas/users.ts";
import type { App } from "../../../src/server/app.ts";
import { buildTestApp } from "../../support/app.ts";
import { databaseTargets, pgliteTarget } from "../../support/databases.ts";
import { jpegWithExif, multipart, png, uploadPhoto } from "../../support/images.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

describe.each(databaseTargets)("profiles and follows on $name", (target) => {
  let app: App;
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
  });
  afterAll(() => app.close());

  const get = (url: string, session?: { token: string }) =>
    app.inject({ method: "GET", url, headers: session ? bearer(session) : {} });
  const put = (url: string, payload: object, session: { token: string }) =>
    app.inject({ method: "PUT", url, payload, headers: bearer(session) });

  it("shows a profile with counts, and records another user's visit once", async () => {
    const owner = await signUp(app);
    const visitor = await signUp(app);
    await get(`/api/users/profile/${owner.id}`, visitor);
    await get(`/api/users/profile/${owner.id}`, visitor);
    await get(`/api/users/profile/${owner.id}`, owner);
    const response = await get(`/api/users/profile/${owner.id}`, owner);
    expect(response.statusCode).toBe(200);
    const profile = profileSchema.parse(response.json());
    expect(profile).toMatchObject({
      id: owner.id,
      accountType: "Starter Account",
      isAccountVerified: false,
      viewersCount: 1,
      followersCount: 0,
      followingCount: 0,
      postCount: 0,
      rewardsCount: 0,
      isFollowing: false,
      email: owner.email,
      posts: [],
    });
    expect(profile.viewedBy.map((viewer) => viewer.id)).toEqual([visitor.id]);
  });

  it("hides the e-mail from other users but shows it to admins", async () => {
    const [admin, owner, other] = [await signUp(app), await signUp(app), await signUp(app)];
    await makeAdmin(app, admin.id);
    expect((await get(`/api/users/profile/${owner.id}`, other)).json().email).toBeUndefined();
    expect((await get(`/api/users/profile/${owner.id}`, admin)).json().email).toBe(owner.email);
    const detail = await get(`/api/users/${owner.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).not.toHaveProperty("email");
    expect(detail.json()).not.toHaveProperty("isBlocked");
  });

  it("answers 404 for unknown users and 400 for malformed ids", async () => {
    const user = await signUp(app);
    expect((await get("/api/users/profile/00000000-0000-4000-8000-000000000000", user)).statusCode).toBe(404);
    expect((await get("/api/users/00000000-0000-4000-8000-000000000000")).statusCode).toBe(404);
    expect((await get("/api/users/not-a-uuid")).statusCode).toBe(400);
  });

  it("updates only the caller's own fields and never privileged ones", async () => {
    const user = await signUp(app);
    const response = await put(
      "/api/users",
      {
        firstName: "Ada",
        lastName: "King",
        email: user.email,
        bio: "Poet of numbers",
        isAdmin: true,
        isBlocked: true,
        isAccountVerified: true,
        followersCount: 99,
        id: "someone-else",
      },
      user,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: user.id,
      firstName: "Ada",
      lastName: "King",
      bio: "Poet of numbers",
      isAdmin: false,
      isBlocked: false,
      isAccountVerified: false,
    });
  });

  it("gives the spec's messages for a profile update", async () => {
    const user = await signUp(app);
    const base = { firstName: "A", lastName: "B", email: user.email, bio: "C" };
    for (const [field, message] of [
      ["firstName", "First Name is required"],
      ["lastName", "Last Name is required"],
      ["email", "Email is required"],
      ["bio", "Bio is required"],
    ]) {
      const response = await put("/api/users", { ...base, [field as string]: "" }, user);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
    }
  });

  it("refuses another account's e-mail with 409", async () => {
    const [user, other] = [await signUp(app), await signUp(app)];
    const response = await put(
      "/api/users",
      { firstName: "A", lastName: "B", email: other.email.toUpperCase(), bio: "x", currentPassword: user.password },
      user,
    );
    expect(response.statusCode).toBe(409);
  });

  it("follows and unfollows idempotently, never oneself, never an unknown user", async () => {
    const [fan, star] = [await signUp(app), await signUp(app)];
    const follow = () => put("/api/users/follow", { followId: star.id }, fan);
    expect((await follow()).json()).toEqual({ isFollowing: true, followersCount: 1 });
    expect((await follow()).json()).toEqual({ isFollowing: true, followersCount: 1 });
    expect((await get(`/api/users/profile/${star.id}`, fan)).json()).toMatchObject({
      isFollowing: true,
      followersCount: 1,
    });
    expect((await get(`/api/users/profile/${fan.id}`, fan)).json()).toMatchObject({ followingCount: 1 });

    const unfollow = () => put("/api/users/unfollow", { unFollowId: star.id }, fan);
    expect((await unfollow()).json()).toEqual({ isFollowing: false, followersCount: 0 });
    expect((await unfollow()).json()).toEqual({ isFollowing: false, followersCount: 0 });

    const self = await put("/api/users/follow", { followId: fan.id }, fan);
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe("You cannot follow yourself");
    expect((await put("/api/users/follow", { followId: "00000000-0000-4000-8000-000000000000" }, fan)).statusCode).toBe(
      404,
    );
  });

  it("tells a reader whether they follow someone without counting a view of their profile", async () => {
    const [fan, star] = [await signUp(app), await signUp(app)];
    const state = () => get(`/api/users/follow/${star.id}`, fan);
    expect((await state()).json()).toEqual({ isFollowing: false, followersCount: 0 });
    await put("/api/users/follow", { followId: star.id }, fan);
    expect((await state()).json()).toEqual({ isFollowing: true, followersCount: 1 });
    expect((await get(`/api/users/follow/${star.id}`, star)).json()).toEqual({ isFollowing: false, followersCount: 1 });
    expect((await get(`/api/users/profile/${star.id}`, star)).json()).toMatchObject({ viewersCount: 0 });
    expect((await get("/api/users/follow/00000000-0000-4000-8000-000000000000", fan)).statusCode).toBe(404);
    expect((await app.inject({ method: "GET", url: `/api/users/follow/${star.id}` })).statusCode).toBe(401);
  });

  it("counts parallel follows exactly", async () => {
    const star = await signUp(app);
    const fans = await Promise.all(Array.from({ length: 12 }, () => signUp(app)));
    await Promise.all(
      fans.flatMap((fan) => [
        put("/api/users/follow", { followId: star.id }, fan),
        put("/api/users/follow", { followId: star.id }, fan),
      ]),
    );
    expect((await get(`/api/users/profile/${star.id}`, star)).json().followersCount).toBe(12);
  });

  describe("profile photos", () => {
    const upload = (session: { token: string }, body: ReturnType<typeof multipart>) =>
      app.inject({
        method: "PUT",
        url: "/api/users/profilephoto-upload",
        payload: body.payload,
        headers: { ...body.headers, ...bearer(session) },
      });

    it("re-encodes the photo, strips its metadata and serves it", async () => {
      const user = await signUp(app);
      const response = await upload(user, multipart("image", "me.jpg", "image/jpeg", await jpegWithExif(1200, 900)));
      expect(response.statusCode).toBe(200);
      const url: string = response.json().profilePhoto;
      expect(url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.webp$/);
      const served = await app.inject({ method: "GET", url });
      expect(served.statusCode).toBe(200);
      const meta = await sharp(served.rawPayload).metadata();
      expect(meta).toMatchObject({ format: "webp", width: 512, height: 512 });
      expect(meta.exif).toBeUndefined();
      expect(served.rawPayload.includes(Buffer.from("SecretCam"))).toBe(false);
    });

    it("replaces the old photo file", async () => {
      const user = await signUp(app);
      const first = (await upload(user, multipart("image", "a.png", "image/png", await png()))).json().profilePhoto;
      const second = (await upload(user, multipart("image", "b.png", "image/png", await png()))).json().profilePhoto;
      expect(second).not.toBe(first);
      expect((await app.inject({ method: "GET", url: first })).statusCode).toBe(404);
    });

    it("judges the type by content: a text file named .png is 415", async () => {
      const user = await signUp(app);
      const response = await upload(
        user,
        multipart("image", "evil.png", "image/png", Buffer.from("<script>alert(1)</script>")),
      );
      expect(response.statusCode).toBe(415);
      expect(response.json().message).toBe("Only JPEG, PNG or GIF images are allowed");
    });

    it("refuses more than 5 MB with 413", async () => {
      const user = await signUp(app);
      const big = Buffer.concat([await png(), Buffer.alloc(5 * 1024 * 1024 + 10)]);
      const response = await upload(user, multipart("image", "big.png", "image/png", big));
      expect(response.statusCode).toBe(413);
      expect(response.json().message).toBe("The image must be at most 5 MB");
    });

    it("asks for an image when none is sent", async () => {
      const user = await signUp(app);
      const response = await upload(user, multipart("other", "a.png", "image/png", await png()));
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe("Image is required");
    });
  });
});

describe("profile photos in S3-compatible storage", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-s3-"));
  const s3 = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: "uploads", configs: [] }],
  });
  let app: App;
  let endpoint: string;
  beforeAll(async () => {
    const { port } = await s3.run();
    endpoint = `http://127.0.0.1:${port}`;
    app = await buildTestApp(await pgliteTarget.open(), {
      env: { S3_ENDPOINT: endpoint, S3_BUCKET: "uploads", S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER" },
    });
  });
  afterAll(async () => {
    await app.close();
    await s3.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("stores the re-encoded photo in the bucket with a signed request and removes the old one", async () => {
    const user = await signUp(app);
    const body = multipart("image", "a.png", "image/png", await png());
    const first = await uploadPhoto(app, user, body);
    expect(first.statusCode).toBe(200);
    const url: string = first.json().profilePhoto;
    expect(url.startsWith(`${endpoint}/uploads/`)).toBe(true);
    const stored = await fetch(url);
    expect(stored.status).toBe(200);
    expect((await sharp(Buffer.from(await stored.arrayBuffer())).metadata()).format).toBe("webp");

    // Read back through the storage, as an archive of one's data reads it: the same bytes, then none once removed.
    const opened = await app.storage.open(url);
    const chunks: Buffer[] = [];
    for await (const chunk of opened?.stream ?? []) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).length).toBe(opened?.size);
    expect((await sharp(Buffer.concat(chunks)).metadata()).format).toBe("webp");

    const again = multipart("image", "b.png", "image/png", await png());
    await uploadPhoto(app, user, again);
    expect((await fetch(url)).status).toBe(404);
    expect(await app.storage.open(url)).toBeNull();
    expect(await app.storage.open("https://elsewhere.example/uploads/x.webp")).toBeNull();
  });

  // s3rver checks the access key but does not recompute SigV4 signatures, so the credentials test uses a wrong key.
  it("fails cleanly when the store refuses the credentials", async () => {
    const wrong = await buildTestApp(await pgliteTarget.open(), {
      env: {
        S3_ENDPOINT: endpoint,
        S3_BUCKET: "uploads",
        S3_ACCESS_KEY_ID: "NOT-A-KEY",
        S3_SECRET_ACCESS_KEY: "S3RVER",
      },
    });
    const user = await signUp(wrong);
    const body = multipart("image", "a.png", "image/png", await png());
    const response = await uploadPhoto(wrong, user, body);
    expect(response.statusCode).toBe(500);
    expect(response.json().message).not.toMatch(/S3|signature/i);
    await wrong.close();
  });
});
