import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { OPERATIONS } from "@/lib/openapi/operations";
import { databaseKind } from "@/lib/db/database-url";
import { startTestServer, type TestServer } from "../setup/api-server";
import { databaseText, openServerDatabase, readLiveConfig, writeLiveConfig } from "../setup/server-database";

// Both databases: sessions and the configuration live in each database differently (file and rows, or rows only).
// A distinct X-Forwarded-For per scenario keeps the login rate limit of one scenario out of the others.
function client(ip: string, cookie?: string): Record<string, string> {
  return { "content-type": "application/json", "x-forwarded-for": ip, ...(cookie ? { cookie } : {}) };
}

function sessionCookieOf(res: Response): string {
  const header = res.headers.get("set-cookie") ?? "";
  const match = /dsa_session=([^;]*)/.exec(header);
  if (!match) throw new Error(`no dsa_session cookie in ${header}`);
  return `dsa_session=${match[1]}`;
}

function samplePath(p: string): string {
  return p.replace(/\{[^}]+\}/g, "1");
}

describe("5: admin auth off (default)", () => {
  const base = inject("baseUrl");

  it("docs/api.md §2: status says disabled with no password", async () => {
    const res = await fetch(`${base}/api/v1/auth/status`);
    expect(await res.json()).toEqual({
      authEnabled: false,
      loggedIn: false,
      passwordSet: false,
      passwordChangeable: false,
      setupState: "no_password",
    });
  });

  it("docs/api.md §2: login answers 400 auth_disabled; change-password 400 not_changeable", async () => {
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: "POST",
      headers: client("10.0.0.1"),
      body: JSON.stringify({ password: "secret1" }),
    });
    expect(login.status).toBe(400);
    expect((await login.json()).error).toBe("auth_disabled");
    const change = await fetch(`${base}/api/v1/auth/change-password`, {
      method: "POST",
      headers: client("10.0.0.1"),
      body: "{}",
    });
    expect(change.status).toBe(400);
    expect((await change.json()).error).toBe("not_changeable");
  });

  it("5: no route answers 401 while auth is off, but the token-only /mcp", async () => {
    for (const op of OPERATIONS) {
      const res = await fetch(`${base}${samplePath(op.path)}`, {
        method: op.method,
        headers: client("10.0.0.2"),
        body: op.method === "GET" ? undefined : "{}",
      });
      // The MCP endpoint takes an API token whatever the auth mode (docs/mcp.md).
      if (op.tokenOnly) expect(res.status, `${op.method} ${op.path}`).toBe(401);
      else expect(res.status, `${op.method} ${op.path}`).not.toBe(401);
    }
  });
});

describe("5: admin auth on", () => {
  let server: TestServer;
  let base: string;

  beforeAll(async () => {
    server = await startTestServer({
      ADMIN_AUTH_ENABLED: "true",
      TRUST_X_FORWARDED_FOR: "true",
      ADMIN_SESSION_MAX_AGE_HOURS: "2",
    });
    base = server.baseUrl;
  });
  afterAll(() => server?.stop());

  // The service's own page sends its Origin; the first login (which sets the password) needs it.
  const login = (ip: string, body: object, extra: Record<string, string> = {}) =>
    fetch(`${base}/api/v1/auth/login`, {
      method: "POST",
      headers: { ...client(ip), origin: base, ...extra },
      body: JSON.stringify(body),
    });

  it("5: every non-exempt route answers 401 without a session; exempt routes do not (route walk)", async () => {
    const exempt = new Set([
      "/",
      "/health",
      "/api/health",
      "/api/v1/health",
      "/openapi.json",
      "/api/v1/auth/login",
      "/api/v1/auth/status",
      "/api/v1/auth/logout",
    ]);
    for (const op of OPERATIONS) {
      const res = await fetch(`${base}${samplePath(op.path)}`, {
        method: op.method,
        headers: { ...client("10.1.0.1"), accept: "application/json" },
        body: op.method === "GET" ? undefined : "{}",
      });
      // The chat platforms' webhooks sit outside /api/v1 (spec 5's rule) and prove themselves by signature.
      if (exempt.has(op.path) || (op.public && op.path.startsWith("/webhooks/"))) {
        expect(res.status, `${op.method} ${op.path}`).not.toBe(401);
      } else {
        expect(res.status, `${op.method} ${op.path}`).toBe(401);
        expect(await res.json()).toMatchObject({ error: "unauthorized" });
      }
    }
    expect((await fetch(`${base}/docs`)).status).toBe(200);
  });

  it("docs/api.md §2: first login sets the password only with a matching confirmation of ≥ 6 characters", async () => {
    const status = await (await fetch(`${base}/api/v1/auth/status`)).json();
    expect(status).toEqual({
      authEnabled: true,
      loggedIn: false,
      passwordSet: false,
      passwordChangeable: false,
      setupState: "enabled",
    });
    expect((await (await login("10.1.0.2", {})).json()).error).toBe("password_required");
    expect((await (await login("10.1.0.2", { password: "abcdef" })).json()).error).toBe("password_mismatch");
    expect((await (await login("10.1.0.2", { password: "abc", passwordConfirm: "abc" })).json()).error).toBe(
      "invalid_password",
    );

    const ok = await login("10.1.0.2", { password: "first-pass", password_confirm: "first-pass" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true });
    const setCookie = ok.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^dsa_session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).toMatch(/Max-Age=7200/);
    expect(setCookie).not.toMatch(/Secure/i);

    const after = await (
      await fetch(`${base}/api/v1/auth/status`, { headers: { cookie: sessionCookieOf(ok) } })
    ).json();
    expect(after).toMatchObject({ loggedIn: true, passwordSet: true, passwordChangeable: true });
  });

  it("5: the cookie is Secure behind a trusted proxy that says https", async () => {
    const res = await login("10.1.0.3", { password: "first-pass" }, { "x-forwarded-proto": "https" });
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toMatch(/Secure/i);
  });

  it("5: a wrong password is 401 invalid_password; a burst is 429 with Retry-After", async () => {
    const wrong = await login("10.1.0.4", { password: "not-it" });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error).toBe("invalid_password");
    for (let i = 0; i < 4; i++) expect((await login("10.1.0.4", { password: "not-it" })).status).toBe(401);
    const limited = await login("10.1.0.4", { password: "first-pass" });
    expect(limited.status).toBe(429);
    expect((await limited.json()).error).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await login("10.1.0.5", { password: "first-pass" })).status).toBe(200);
  });

  it("5: a state-changing request from another origin is refused", async () => {
    const res = await login("10.1.0.6", { password: "first-pass" }, { origin: "http://evil.example" });
    expect(res.status).toBe(403);
    const same = await login("10.1.0.6", { password: "first-pass" }, { origin: base });
    expect(same.status).toBe(200);
  });

  it("docs/api.md §2: logout revokes the session server-side and clears the cookie", async () => {
    const cookie = sessionCookieOf(await login("10.1.0.7", { password: "first-pass" }));
    const protectedCall = () =>
      fetch(`${base}/api/v1/auth/change-password`, { method: "POST", headers: client("10.1.0.7", cookie), body: "{}" });
    expect((await protectedCall()).status).toBe(400); // reached the handler: current_required
    const out = await fetch(`${base}/api/v1/auth/logout`, { method: "POST", headers: client("10.1.0.7", cookie) });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/dsa_session=;.*Max-Age=0/i);
    expect((await protectedCall()).status).toBe(401);
    expect(await (await fetch(`${base}/api/v1/auth/status`, { headers: { cookie } })).json()).toMatchObject({
      loggedIn: false,
    });
  });

  it("docs/api.md §2: change-password checks current and confirmation, then ends every other session", async () => {
    const mine = sessionCookieOf(await login("10.1.0.8", { password: "first-pass" }));
    const other = sessionCookieOf(await login("10.1.0.9", { password: "first-pass" }));
    const change = (body: object) =>
      fetch(`${base}/api/v1/auth/change-password`, {
        method: "POST",
        headers: client("10.1.0.8", mine),
        body: JSON.stringify(body),
      });
    expect((await (await change({ newPassword: "second-pass", newPasswordConfirm: "second-pass" })).json()).error).toBe(
      "current_required",
    );
    expect(
      (
        await (
          await change({ currentPassword: "nope", newPassword: "second-pass", newPasswordConfirm: "second-pass" })
        ).json()
      ).error,
    ).toBe("invalid_password");
    expect(
      (
        await (
          await change({ currentPassword: "first-pass", newPassword: "second-pass", newPasswordConfirm: "x" })
        ).json()
      ).error,
    ).toBe("password_mismatch");
    expect(
      (
        await (
          await change({ currentPassword: "first-pass", newPassword: "short", newPasswordConfirm: "short" })
        ).json()
      ).error,
    ).toBe("invalid_password");
    expect(
      (await change({ currentPassword: "first-pass", newPassword: "second-pass", newPasswordConfirm: "second-pass" }))
        .status,
    ).toBe(204);

    expect(await (await fetch(`${base}/api/v1/auth/status`, { headers: { cookie: mine } })).json()).toMatchObject({
      loggedIn: true,
    });
    expect(await (await fetch(`${base}/api/v1/auth/status`, { headers: { cookie: other } })).json()).toMatchObject({
      loggedIn: false,
    });
    expect((await login("10.1.0.10", { password: "first-pass" })).status).toBe(401);
    expect((await login("10.1.0.10", { password: "second-pass" })).status).toBe(200);
  });

  it("change-password's current password is under the login limit: a burst of wrong ones is 429", async () => {
    const cookie = sessionCookieOf(await login("10.1.0.31", { password: "second-pass" }));
    const change = (currentPassword: string) =>
      fetch(`${base}/api/v1/auth/change-password`, {
        method: "POST",
        headers: client("10.1.0.31", cookie),
        body: JSON.stringify({ currentPassword, newPassword: "third-pass", newPasswordConfirm: "third-pass" }),
      });
    for (let i = 0; i < 5; i++) expect((await change(`guess-${i}`)).status).toBe(400);
    const limited = await change("second-pass");
    expect(limited.status).toBe(429);
    expect((await limited.json()).error).toBe("rate_limited");
  });

  it("a tampered cookie is no session", async () => {
    const res = await fetch(`${base}/api/v1/auth/status`, { headers: { cookie: "dsa_session=Fe26.2*forged" } });
    expect(await res.json()).toMatchObject({ loggedIn: false });
  });

  it("the password is never stored in plain text, and the generated session secret stays with the data (an owner-only file, or the shared database)", async () => {
    const stored = await databaseText(server);
    expect(stored).not.toContain("second-pass");
    expect(stored).toContain("scrypt$");
    const secretFile = path.join(server.dataDir, "session-secret");
    if (databaseKind(server.databaseUrl) === "sqlite") {
      expect(fs.statSync(secretFile).mode & 0o077).toBe(0);
    } else {
      // Replicas share it through the database; a file would give each its own and log users out at random.
      expect(fs.existsSync(secretFile)).toBe(false);
      const database = await openServerDatabase(server);
      const row = await database.get<{ value: string }>("SELECT value FROM app_state WHERE key = ?", "session_secret");
      await database.close();
      expect(row?.value.length).toBeGreaterThanOrEqual(32);
    }
  });

  it("docs/api.md §2: the live configuration (env file, or the config document on PostgreSQL) can switch admin auth off at run time", async () => {
    await writeLiveConfig(server, "ADMIN_AUTH_ENABLED=false\n");
    // Seen on the next env-file check (SQLite) or revision poll (PostgreSQL, once a second).
    await expect
      .poll(async () => (await (await fetch(`${base}/api/v1/auth/status`)).json()) as object, {
        timeout: 10_000,
        interval: 250,
      })
      .toMatchObject({
        authEnabled: false,
        setupState: "password_retained",
      });
    const res = await fetch(`${base}/api/v1/auth/change-password`, {
      method: "POST",
      headers: client("10.1.0.11"),
      body: "{}",
    });
    expect(res.status).toBe(400);
  });
});

describe("docs/api.md §2: POST /api/v1/auth/settings switches admin auth", () => {
  let server: TestServer;
  let base: string;
  const envFile = () => readLiveConfig(server);

  beforeAll(async () => {
    server = await startTestServer();
    base = server.baseUrl;
  });
  afterAll(() => server?.stop());

  const settings = (body: object, cookie?: string) =>
    fetch(`${base}/api/v1/auth/settings`, {
      method: "POST",
      headers: { ...client("10.2.0.1", cookie), origin: base },
      body: JSON.stringify(body),
    });

  it("turning auth on needs a confirmed password, then logs this client in and writes the env file", async () => {
    expect((await (await settings({ authEnabled: true })).json()).error).toBe("password_required");
    expect(
      (await (await settings({ authEnabled: true, password: "switch-pass", passwordConfirm: "nope" })).json()).error,
    ).toBe("password_mismatch");
    expect((await fetch(`${base}/api/v1/system/config/export`)).status).toBe(403);

    const on = await settings({ authEnabled: true, password: "switch-pass", passwordConfirm: "switch-pass" });
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({
      authEnabled: true,
      loggedIn: true,
      passwordSet: true,
      setupState: "enabled",
    });
    expect(await envFile()).toMatch(/^ADMIN_AUTH_ENABLED=true$/m);
    const cookie = sessionCookieOf(on);

    expect((await fetch(`${base}/api/v1/system/config/export`)).status).toBe(401);
    const exported = await fetch(`${base}/api/v1/system/config/export`, { headers: { cookie } });
    expect(exported.status).toBe(200);
    expect((await exported.json()).content).toContain("ADMIN_AUTH_ENABLED=true");

    expect((await settings({ authEnabled: false })).status).toBe(401);
    // A password sent is checked; none sent, the signed-in session is proof enough (as in the reference).
    expect((await settings({ authEnabled: false, currentPassword: "wrong-pass" }, cookie)).status).toBe(401);
    const off = await settings({ authEnabled: false }, cookie);
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ authEnabled: false, setupState: "password_retained" });
    expect(await envFile()).toMatch(/^ADMIN_AUTH_ENABLED=false$/m);
    expect((await fetch(`${base}/api/v1/system/config/export`)).status).toBe(403);
    // While off, "off" again changes nothing and needs nothing.
    expect((await settings({ authEnabled: false })).status).toBe(200);

    expect((await settings({ authEnabled: true, password: "other-pass", passwordConfirm: "other-pass" })).status).toBe(
      401,
    );
    const again = await settings({ authEnabled: true, currentPassword: "switch-pass" });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ authEnabled: true, loggedIn: true });
  });
});

describe("the client address and https come from the socket unless the proxy is trusted", () => {
  let server: TestServer;
  let base: string;

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_AUTH_ENABLED: "true" });
    base = server.baseUrl;
    const first = await fetch(`${base}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ password: "socket-pass", passwordConfirm: "socket-pass" }),
    });
    expect(first.status).toBe(200);
  });
  afterAll(() => server?.stop());

  const login = (password: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ password }),
    });

  it("a client-sent X-Forwarded-Proto: https does not make the cookie Secure", async () => {
    const res = await login("socket-pass", { "x-forwarded-proto": "https" });
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).not.toMatch(/Secure/i);
  });

  it("300 concurrent wrong passwords are mostly 429, not 300 × 401", async () => {
    const statuses = await Promise.all(
      Array.from({ length: 300 }, () => login("wrong-pass", { "x-forwarded-for": "10.5.0.1" }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(295);
  });

  it("rotating X-Forwarded-For buys no fresh tries: the socket address is the client", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await login("wrong-pass", { "x-forwarded-for": `10.4.0.${i}` });
      expect(res.status).toBe(429);
    }
  });
});
