import type { FastifyInstance, FastifyReply } from "fastify";

/** A CSV answer saved as `<name>.csv`, never kept by a shared cache (it is someone's own data). */
export const sendCsv = (reply: FastifyReply, name: string, body: string) =>
  reply
    .type("text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${name}.csv"`)
    .header("cache-control", "private, no-store")
    .send(body);

/**
 * RFC 8058's one-click unsubscribe POSTs `List-Unsubscribe=One-Click` as a form body, which the rest of the API does
 * not take: only the scope that calls this accepts one (1 KB at most, read as a string and ignored).
 */
export function acceptOneClickForm(app: FastifyInstance) {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: 1024 },
    (_request, body, done) => done(null, body),
  );
}
