import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { FEATURED_FEE_WEI } from "#shared/constants.ts";
import { healthSchema, publicConfigSchema } from "#shared/schemas/system.ts";

async function probe(check: () => Promise<unknown>): Promise<"ok" | "down"> {
  try {
    await check();
    return "ok";
  } catch {
    return "down";
  }
}

/** How long one answer of the chain's RPC stands for every health check: a flood of checks is one call. */
const CHAIN_CHECK_MS = 5000;

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  let chainCheck: { at: number; result: Promise<"ok" | "down"> } | undefined;
  const checkChain = () => {
    if (!chainCheck || Date.now() - chainCheck.at > CHAIN_CHECK_MS) {
      chainCheck = {
        at: Date.now(),
        result: probe(async () => {
          if ((await app.chain.getChainId()) !== app.config.chain.id) throw new Error("wrong chain");
        }),
      };
    }
    return chainCheck.result;
  };

  app.get(
    "/health",
    {
      schema: {
        tags: ["system"],
        summary: "Database and chain status",
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      const [database, chain] = await Promise.all([probe(() => app.database.ping()), checkChain()]);
      const healthy = database === "ok" && chain === "ok";
      return reply.code(healthy ? 200 : 503).send({ status: healthy ? "ok" : "degraded", database, chain });
    },
  );

  app.get(
    "/config",
    {
      schema: {
        tags: ["system"],
        summary: "Public chain and fee settings for wallets",
        response: { 200: publicConfigSchema },
      },
    },
    async () => ({
      chainId: app.config.chain.id,
      chainName: app.config.chain.name,
      nativeCurrency: app.config.chain.nativeCurrency,
      rpcUrl: app.config.publicRpcUrl,
      feeRecipient: app.config.feeRecipient,
      feeWei: FEATURED_FEE_WEI.toString(),
      minConfirmations: app.config.minConfirmations,
      explorerUrl: app.config.explorerUrl,
    }),
  );
};
