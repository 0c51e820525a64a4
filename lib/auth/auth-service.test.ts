import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { disconnectDb } from "@/lib/db/client";
import { freshDatabaseUrl } from "@/tests/kits/db/temp-database";
import { ApiError } from "@/lib/errors/api-error";
import { login, updateAuthSettings } from "./auth-service";
import { resetLoginRateLimit } from "./login-rate-limit";
import { hashPassword } from "./password";
import { storePasswordHash } from "./password-store";

// The login limit under concurrency and against a client-chosen X-Forwarded-For.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dsa-auth-service-"));
const file = path.join(dir, "auth.db");
let databaseUrl = "";
const SELF = "http://127.0.0.1:3000";

function loginRequest(headers: Record<string, string> = {}): Request {
  return new Request(`${SELF}/api/v1/auth/login`, {
    method: "POST",
    headers: { host: "127.0.0.1:3000", "x-forwarded-for": "10.9.0.1", ...headers },
  });
}

async function statusOf(run: Promise<unknown>): Promise<number> {
  try {
    await run;
    return 200;
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}

function configure(extra: Record<string, string> = {}): void {
  setEnvironmentForTests({
    ENV_FILE: path.join(dir, ".env"),
    DATABASE_URL: databaseUrl,
    ADMIN_AUTH_ENABLED: "true",
    ...extra,
  });
}

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl(file);
  configure();
  await storePasswordHash(await hashPassword("right-pass"));
});
beforeEach(() => {
  configure();
  resetLoginRateLimit();
});
afterAll(async () => {
  await disconnectDb();
  setEnvironmentForTests(process.env);
});

describe("login rate limit", () => {
  it("100 concurrent wrong passwords from one client: at most 5 reach the password check, the rest are 429", async () => {
    const statuses = await Promise.all(
      Array.from({ length: 100 }, () => statusOf(login(loginRequest(), { password: "wrong-pass" }))),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(95);
  }, 30_000);

  it("many clients failing slow the failing ones down but never refuse a correct password from a client with no failures", async () => {
    configure({ TRUST_X_FORWARDED_FOR: "true" });
    for (let i = 0; i < 60; i++)
      await statusOf(login(loginRequest({ "x-forwarded-for": `10.7.${i}.1` }), { password: "wrong-pass" }));
    expect(await statusOf(login(loginRequest({ "x-forwarded-for": "10.7.0.1" }), { password: "wrong-pass" }))).toBe(
      429,
    );
    expect(await statusOf(login(loginRequest({ "x-forwarded-for": "10.6.0.1" }), { password: "right-pass" }))).toBe(
      200,
    );
  }, 90_000);
});

describe("the first admin setup only from this service's own page", () => {
  it("turning auth on with a first password is refused without a same-origin Origin and accepted with one", async () => {
    configure({ DATABASE_URL: await freshDatabaseUrl(path.join(dir, "fresh.db")), ADMIN_AUTH_ENABLED: "false" });
    await disconnectDb();
    const body = { authEnabled: true, password: "owner-pass", passwordConfirm: "owner-pass" };
    const settings = (headers: Record<string, string>) =>
      new Request(`${SELF}/api/v1/auth/settings`, { method: "POST", headers: { host: "127.0.0.1:3000", ...headers } });
    expect(await statusOf(updateAuthSettings(settings({}), body))).toBe(403);
    expect(await statusOf(updateAuthSettings(settings({ origin: SELF }), body))).toBe(200);
    await disconnectDb();
  });
});
