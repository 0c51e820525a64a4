import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../setup/api-server";
import { openServerDatabase } from "../setup/server-database";

// Over HTTP: API tokens with admin auth on.

type OpenApi = { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>> };
type Created = {
  id: string;
  name: string;
  scope: string;
  token: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
};

const PASSWORD = "tokens-pass";

async function adminCookie(base: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ password: PASSWORD, passwordConfirm: PASSWORD }),
  });
  expect(res.status).toBe(200);
  const match = /dsa_session=([^;]*)/.exec(res.headers.get("set-cookie") ?? "");
  if (!match) throw new Error("no session cookie");
  return `dsa_session=${match[1]}`;
}

function client(base: string, auth: { cookie?: string; token?: string }) {
  return (method: string, p: string, body?: unknown) =>
    fetch(`${base}${p}`, {
      method,
      headers: {
        "content-type": "application/json",
        ...(auth.cookie ? { cookie: auth.cookie } : {}),
        ...(auth.token !== undefined ? { authorization: `Bearer ${auth.token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

async function mint(base: string, cookie: string, body: object): Promise<Created> {
  const res = await client(base, { cookie })("POST", "/api/v1/auth/tokens", body);
  expect(res.status).toBe(201);
  return (await res.json()) as Created;
}

describe("API tokens with admin auth on", () => {
  let server: TestServer;
  let base: string;
  let cookie: string;

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_AUTH_ENABLED: "true" });
    base = server.baseUrl;
    cookie = await adminCookie(base);
  });
  afterAll(() => server?.stop());

  it("create → list without the secret → read allows GET, not POST → write POSTs → tokens cannot mint → revoke → 401", async () => {
    const admin = client(base, { cookie });
    const read = await mint(base, cookie, { name: "reader", scope: "read", expires_in_days: 30 });
    expect(read.token).toMatch(/^dsa_[A-Za-z0-9_-]{43}$/);
    expect(read).toMatchObject({
      name: "reader",
      scope: "read",
      prefix: read.token.slice(0, 12),
      expires_at: expect.any(String),
    });
    const write = await mint(base, cookie, { name: "writer", scope: "write" });
    expect(write.expires_at).toBeNull();

    const listRes = await admin("GET", "/api/v1/auth/tokens");
    const listText = await listRes.text();
    expect(listRes.status).toBe(200);
    expect(listText).not.toContain(read.token.slice(12));
    expect(listText).not.toContain(write.token.slice(12));
    const items = (JSON.parse(listText) as { items: Record<string, unknown>[] }).items;
    expect(items.map((t) => t.name)).toEqual(expect.arrayContaining(["reader", "writer"]));
    for (const item of items)
      expect(Object.keys(item).sort()).toEqual([
        "created_at",
        "expires_at",
        "id",
        "last_used_at",
        "name",
        "prefix",
        "scope",
      ]);

    const asRead = client(base, { token: read.token });
    expect((await asRead("GET", "/api/v1/portfolio/accounts")).status).toBe(200);
    const refused = await asRead("POST", "/api/v1/portfolio/accounts", { name: "nope" });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "forbidden" });

    const asWrite = client(base, { token: write.token });
    expect((await asWrite("POST", "/api/v1/portfolio/accounts", { name: "by-token" })).status).toBe(200);
    expect((await asWrite("POST", "/api/v1/auth/tokens", { name: "child", scope: "write" })).status).toBe(403);
    expect((await asWrite("GET", "/api/v1/auth/tokens")).status).toBe(403);
    expect((await asWrite("DELETE", `/api/v1/auth/tokens/${read.id}`)).status).toBe(403);
    expect((await asWrite("GET", "/api/v1/system/config/export")).status).toBe(403);

    const used = (
      (await (await admin("GET", "/api/v1/auth/tokens")).json()) as {
        items: { id: string; last_used_at: string | null }[];
      }
    ).items;
    expect(used.find((t) => t.id === write.id)?.last_used_at).toEqual(expect.any(String));

    expect((await admin("DELETE", `/api/v1/auth/tokens/${write.id}`)).status).toBe(204);
    const revoked = await asWrite("GET", "/api/v1/portfolio/accounts");
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toMatchObject({ error: "unauthorized", message: expect.any(String) });
    expect((await admin("DELETE", `/api/v1/auth/tokens/${write.id}`)).status).toBe(404);
    expect((await admin("DELETE", "/api/v1/auth/tokens/no-such-token")).status).toBe(404);
    expect((await client(base, { token: "dsa_wrong" })("GET", "/api/v1/portfolio/accounts")).status).toBe(401);
  });

  it("an expired token is 401", async () => {
    const token = await mint(base, cookie, { name: "short", scope: "read", expires_in_days: 1 });
    expect((await client(base, { token: token.token })("GET", "/api/v1/portfolio/accounts")).status).toBe(200);
    // The API only takes future expiries; moving this row's expiry into the past stands in for waiting a day.
    const database = await openServerDatabase(server);
    try {
      // SQLite may hold the DateTime as epoch-ms or as ISO text; PostgreSQL's timestamp is read back as ISO text
      // and takes the ISO text (UTC, as Prisma writes it) in return.
      const { expires_at: stored } = (await database.get<{ expires_at: number | string }>(
        "SELECT expires_at FROM api_token WHERE id = ?",
        token.id,
      ))!;
      const past = Date.now() - 60_000;
      await database.run(
        "UPDATE api_token SET expires_at = ? WHERE id = ?",
        typeof stored === "number" ? past : new Date(past).toISOString(),
        token.id,
      );
    } finally {
      await database.close();
    }
    expect((await client(base, { token: token.token })("GET", "/api/v1/portfolio/accounts")).status).toBe(401);
  });

  it("route walk from /openapi.json: every protected operation is 401 without credentials; a read token is 403 on every protected write", async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as OpenApi;
    const read = await mint(base, cookie, { name: "walker", scope: "read" });
    const anonymous = client(base, {});
    const asRead = client(base, { token: read.token });
    let walked = 0;
    for (const [p, methods] of Object.entries(doc.paths)) {
      const sample = p.replace(/\{[^}]+\}/g, "1");
      for (const [method, op] of Object.entries(methods)) {
        if (!op.security) continue;
        const verb = method.toUpperCase();
        const body = verb === "GET" ? undefined : {};
        const bare = await anonymous(verb, sample, body);
        expect(bare.status, `${verb} ${p} without credentials`).toBe(401);
        const sessionOnly = !op.security.some((s) => "BearerToken" in s);
        const tokenOnly = !op.security.some((s) => "AdminSessionCookie" in s);
        if (tokenOnly) {
          // POST /mcp takes a read token and offers it the read tools only; switched off here, it is 404.
          expect((await asRead(verb, sample, body)).status, `${verb} ${p} with a read token`).toBe(404);
        } else if (verb !== "GET" || sessionOnly) {
          expect((await asRead(verb, sample, body)).status, `${verb} ${p} with a read token`).toBe(403);
        }
        walked++;
      }
    }
    expect(walked).toBeGreaterThan(40);
  });
});

describe("the per-token rate limit", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_AUTH_ENABLED: "true", API_TOKEN_RATE_PER_MINUTE: "3" });
  });
  afterAll(() => server?.stop());

  it("past API_TOKEN_RATE_PER_MINUTE a token gets 429 with Retry-After", async () => {
    const base = server.baseUrl;
    const read = await mint(base, await adminCookie(base), { name: "busy", scope: "read" });
    const asRead = client(base, { token: read.token });
    for (let i = 0; i < 3; i++) expect((await asRead("GET", "/api/v1/portfolio/accounts")).status).toBe(200);
    const limited = await asRead("GET", "/api/v1/portfolio/accounts");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await limited.json()).toMatchObject({ error: "rate_limited" });
  });
});
