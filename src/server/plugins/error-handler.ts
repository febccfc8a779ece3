import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import type { ApiErrorBody } from "#shared/schemas/error.ts";
import { HttpError } from "../http-error.ts";

export const DATABASE_DOWN = "The database is unavailable right now. Please try again in a moment.";
const GENERIC_5XX: Record<number, string> = {
  502: "An upstream service failed. Please try again.",
  503: "The service is temporarily unavailable. Please try again.",
};

/** One error shape for the whole API: `{ message, issues? }`; 5xx bodies never carry internals. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler<FastifyError>((error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => ({
        path: issue.instancePath.replace(/^\//, "").replaceAll("/", "."),
        message: issue.message ?? "Invalid value",
      }));
      const body: ApiErrorBody = { message: issues[0]?.message ?? "Invalid input", issues };
      return reply.code(400).send(body);
    }
    if (error instanceof HttpError)
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send({ message: error.message, ...(error.issues ? { issues: error.issues } : {}) });

    if (app.database.isUnavailable(error)) {
      request.log.warn({ err: error }, "database unavailable");
      return reply.code(503).header("retry-after", "5").send({ message: DATABASE_DOWN });
    }
    const status = isResponseSerializationError(error) ? 500 : (error.statusCode ?? 500);
    if (status >= 500) {
      request.log.error({ err: error }, "request failed");
      return reply
        .code(status)
        .send({ message: GENERIC_5XX[status] ?? "Something went wrong on our side. Please try again." });
    }
    // Fastify's own 4xx errors (bad JSON, body too large, wrong content type, rate limits) have safe messages.
    return reply.code(status).send({ message: error.message });
  });
}
