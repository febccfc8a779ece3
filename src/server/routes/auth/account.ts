import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sessionSchema } from "#shared/schemas/session.ts";
import { linkWalletSchema } from "#shared/schemas/siwe.ts";
import {
  changePasswordSchema,
  forgetPasswordSchema,
  loginSchema,
  messageSchema,
  privateUserSchema,
  RESET_SENT,
  registerSchema,
  resetPasswordSchema,
  verifyAccountSchema,
} from "#shared/schemas/users.ts";
import { currentUser } from "../../plugins/auth.ts";
import { byAddress, byUser, limitBy } from "../../plugins/rate-limits.ts";
import * as passwords from "../../services/auth/passwords.ts";
import * as registration from "../../services/auth/registration.ts";
import { linkWallet } from "../../services/auth/wallets.ts";
import type { TokenClaims } from "../../services/core/session-tokens.ts";
import { logout } from "../../services/core/sessions.ts";

const tags = ["auth"];

/**
 * Accounts: register, log in and out, passwords, e-mail verification and the wallet (docs/specification.md §Register,
 * §Login, §Password reset request, §Account verification).
 */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post("/register", {
    schema: { tags, summary: "Create an account", body: registerSchema, response: { 201: privateUserSchema } },
    preHandler: limitBy(app, "register", byAddress),
    handler: async (request, reply) => reply.code(201).send(await registration.register(request.deps, request.body)),
  });

  app.post("/login", {
    schema: {
      tags,
      summary: "Log in; the response is the session",
      body: loginSchema,
      response: { 200: sessionSchema },
    },
    // By address across accounts (spraying) and by account across addresses; the same answer either way.
    preHandler: [
      limitBy(app, "login", byAddress),
      limitBy(app, "loginAccount", (request) => (request.body as { email: string }).email),
    ],
    handler: async (request) => passwords.login(request.deps, request.body),
  });

  app.put("/password", {
    schema: {
      tags,
      summary: "Change the password (the current one is asked again); ends other sessions",
      body: changePasswordSchema,
      response: { 200: sessionSchema },
    },
    // Guesses at the current password count like failed logins.
    preHandler: [app.requireUser, limitBy(app, "loginAccount", (request) => currentUser(request).email)],
    handler: async (request) => passwords.changePassword(request.deps, currentUser(request), request.body),
  });

  app.post("/logout", {
    schema: { tags, summary: "End this session on the server", response: { 200: messageSchema } },
    preHandler: app.requireUser,
    handler: async (request) => {
      await logout(request.deps, currentUser(request), request.session as TokenClaims);
      return { message: "You are logged out." };
    },
  });

  app.post("/forget-password-token", {
    schema: {
      tags,
      summary: "E-mail a reset link (same answer for unknown e-mails)",
      body: forgetPasswordSchema,
      response: { 200: messageSchema },
    },
    preHandler: [
      limitBy(app, "passwordReset", byAddress),
      limitBy(app, "passwordResetAccount", (request) => (request.body as { email: string }).email),
    ],
    // Answered before anything is looked up or sent, so the answer takes as long for every address.
    handler: async (request) => {
      const { email } = request.body;
      passwords.requestPasswordResetLater(request.deps, email);
      return { message: RESET_SENT };
    },
  });

  app.put("/reset-password", {
    schema: {
      tags,
      summary: "Set a new password with an e-mailed token",
      body: resetPasswordSchema,
      response: { 200: messageSchema },
    },
    preHandler: limitBy(app, "passwordReset", byAddress),
    handler: async (request) => {
      await passwords.resetPassword(request.deps, request.body);
      return { message: "Password Reset Successfully" };
    },
  });

  app.post("/generate-verify-email-token", {
    schema: {
      tags,
      summary: "E-mail an account verification link",
      response: { 200: messageSchema, 202: messageSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "verification", byUser)],
    handler: async (request, reply) => {
      const delivery = await registration.requestVerification(request.deps, currentUser(request));
      return delivery === "sent"
        ? { message: "Verification email sent. Check your inbox." }
        : reply.code(202).send({
            message: "The mail server is not answering. Your verification email is queued and will be sent shortly.",
          });
    },
  });

  app.put("/verify-account", {
    schema: {
      tags,
      summary: "Verify the account with an e-mailed token",
      body: verifyAccountSchema,
      response: { 200: privateUserSchema },
    },
    preHandler: [app.requireUser, limitBy(app, "verification", byUser)],
    handler: async (request) => registration.verifyAccount(request.deps, currentUser(request), request.body.token),
  });

  app.post("/wallet", {
    schema: {
      tags,
      summary:
        "Link and verify the caller's wallet with a SIWE signature (replacing a verified wallet asks for the current password)",
      body: linkWalletSchema,
      response: { 200: privateUserSchema },
    },
    // Guesses at the current password count like failed logins.
    preHandler: [
      app.requireUser,
      limitBy(app, "siwe", byAddress),
      limitBy(app, "loginAccount", (request) => currentUser(request).email),
    ],
    handler: async (request) => linkWallet(request.deps, currentUser(request), request.body),
  });
};
