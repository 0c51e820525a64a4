import { z } from "zod";

export const ZCreateApiTokenRequest = z
  .object({
    name: z.string().trim().min(1).max(64),
    scope: z.enum(["read", "write"]),
    expires_in_days: z.number().int().min(1).max(3650).optional().describe("Omit for a token that never expires"),
  })
  .meta({ id: "CreateApiTokenRequest" });

export const ZApiToken = z
  .object({
    id: z.string(),
    name: z.string(),
    scope: z.enum(["read", "write"]),
    prefix: z.string().describe("The first characters of the token, to tell tokens apart"),
    created_at: z.string(),
    expires_at: z.string().nullable(),
    last_used_at: z.string().nullable().describe("Updated at most once a minute"),
  })
  .meta({ id: "ApiToken" });

export const ZCreatedApiToken = ZApiToken.omit({ last_used_at: true })
  .extend({ token: z.string().describe("The secret; shown only in this response") })
  .meta({ id: "CreatedApiToken" });

export const ZApiTokenList = z.object({ items: z.array(ZApiToken) }).meta({ id: "ApiTokenList" });

export const ZApiTokenParams = z.object({ id: z.string().min(1).max(64) });
