import { describe, expect, it } from "vitest";
import { siteSettingsSchema } from "#shared/schemas/settings.ts";
import { healthSchema, publicConfigSchema } from "#shared/schemas/system.ts";
import { ApiError, api, ContractError } from "../../src/client/lib/api-client.ts";
import { withApiServer } from "./api-server.ts";

withApiServer();

describe("the API client", () => {
  it("parses an answer with its shared schema", async () => {
    const config = await api("/api/config", publicConfigSchema);
    expect(config.chainId).toEqual(expect.any(Number));
  });

  it("fails loudly (in development and tests) when an answer breaks the contract", async () => {
    const wrong = api("/api/settings", publicConfigSchema);
    await expect(wrong).rejects.toBeInstanceOf(ContractError);
    await expect(wrong).rejects.toThrow(/\/api\/settings does not match its schema/);
    await expect(api("/api/settings", siteSettingsSchema)).resolves.toBeTruthy();
  });

  it("turns an error answer into an ApiError with the field issues", async () => {
    const refused = api("/api/users/register", healthSchema, { method: "POST", body: { firstName: "" } });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    const error = (await refused.catch((caught) => caught)) as ApiError;
    expect(error.status).toBe(400);
    expect(error.issues.map((issue) => issue.path)).toEqual(expect.arrayContaining(["firstName", "email"]));
  });
});
