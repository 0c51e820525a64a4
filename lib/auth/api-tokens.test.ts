import { beforeEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { ApiError } from "@/lib/errors/api-error";
import { resetTokenRateLimit } from "./api-token-rate-limit";
import { createApiToken, listApiTokens, revokeApiToken, verifyApiToken } from "./api-tokens";
import { guardRequest } from "./guard";

const tmp = withTempDatabase("api-tokens", { ADMIN_AUTH_ENABLED: "true", API_TOKEN_RATE_PER_MINUTE: "3" });
const T0 = new Date("2026-11-25T08:00:00Z");

function call(method: string, token: string, headers: Record<string, string> = {}): Request {
  return new Request("http://127.0.0.1:3000/api/v1/history", {
    method,
    headers: { host: "127.0.0.1:3000", authorization: `Bearer ${token}`, ...headers },
  });
}

async function statusOf(run: () => unknown): Promise<number> {
  try {
    await run();
    return 200;
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}

beforeEach(() => {
  setClock(() => T0);
  resetTokenRateLimit();
});

describe("the token store", () => {
  it("stores the hash, never the secret; lists without it; revocation and expiry end verification", async () => {
    const created = await createApiToken({ name: "ci", scope: "read", expires_in_days: 2 });
    expect(created.expires_at).toBe("2026-11-27T08:00:00.000Z");
    const row = await db().apiToken.findUniqueOrThrow({ where: { id: created.id } });
    expect(JSON.stringify(row)).not.toContain(created.token.slice(4));
    const listed = (await listApiTokens()).find((t) => t.id === created.id);
    expect(listed).toEqual({
      id: created.id,
      name: "ci",
      scope: "read",
      prefix: created.prefix,
      created_at: T0.toISOString(),
      expires_at: created.expires_at,
      last_used_at: null,
    });

    expect(await verifyApiToken(created.token)).toEqual({ id: created.id, scope: "read" });
    expect(await verifyApiToken(created.token.slice(0, -1) + "x")).toBeNull();
    setClock(() => new Date("2026-11-27T08:00:00Z"));
    expect(await verifyApiToken(created.token)).toBeNull();

    setClock(() => T0);
    await revokeApiToken(created.id);
    expect(await verifyApiToken(created.token)).toBeNull();
    expect((await listApiTokens()).some((t) => t.id === created.id)).toBe(false);
    expect(await statusOf(() => revokeApiToken(created.id))).toBe(404);
  });

  it("last_used_at moves at most once a minute", async () => {
    const { id, token } = await createApiToken({ name: "poller", scope: "read" });
    const lastUsed = async () => (await db().apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt?.toISOString();
    await verifyApiToken(token);
    expect(await lastUsed()).toBe(T0.toISOString());
    setClock(() => new Date(T0.getTime() + 59_000));
    await verifyApiToken(token);
    expect(await lastUsed()).toBe(T0.toISOString());
    setClock(() => new Date(T0.getTime() + 60_000));
    await verifyApiToken(token);
    expect(await lastUsed()).toBe(new Date(T0.getTime() + 60_000).toISOString());
  });
});

describe("the guard with a bearer token", () => {
  it("checks the scope, keeps session-only operations from tokens, and skips the Origin check", async () => {
    const read = await createApiToken({ name: "r", scope: "read" });
    const write = await createApiToken({ name: "w", scope: "write" });
    expect(await statusOf(() => guardRequest(call("GET", read.token), {}))).toBe(200);
    expect(await statusOf(() => guardRequest(call("POST", read.token), {}))).toBe(403);
    expect(await statusOf(() => guardRequest(call("POST", write.token, { origin: "http://evil.example" }), {}))).toBe(
      200,
    );
    expect(await statusOf(() => guardRequest(call("GET", write.token), { adminSessionOnly: true }))).toBe(403);
    expect(await statusOf(() => guardRequest(call("GET", "dsa_nope"), {}))).toBe(401);
    expect(await statusOf(() => guardRequest(call("GET", "dsa_nope"), { public: true }))).toBe(200);
  });

  it("a token past API_TOKEN_RATE_PER_MINUTE gets 429 with Retry-After; other tokens are not held back", async () => {
    const busy = await createApiToken({ name: "busy", scope: "read" });
    const other = await createApiToken({ name: "other", scope: "read" });
    for (let i = 0; i < 3; i++) await guardRequest(call("GET", busy.token), {});
    const refused = await (async () => guardRequest(call("GET", busy.token), {}))().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(429);
    expect(Number((refused as ApiError).headers["Retry-After"])).toBeGreaterThanOrEqual(1);
    expect(await statusOf(() => guardRequest(call("GET", other.token), {}))).toBe(200);
  });

  it("with admin auth off a bearer header, valid or not, changes nothing", async () => {
    tmp.useSettings({ ADMIN_AUTH_ENABLED: "false" });
    try {
      expect(await statusOf(() => guardRequest(call("POST", "dsa_nope"), {}))).toBe(200);
      expect(await statusOf(() => guardRequest(call("POST", "dsa_nope", { origin: "http://evil.example" }), {}))).toBe(
        403,
      );
    } finally {
      tmp.useSettings({ ADMIN_AUTH_ENABLED: "true", API_TOKEN_RATE_PER_MINUTE: "3" });
    }
  });
});
