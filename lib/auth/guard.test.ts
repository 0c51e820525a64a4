import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { ApiError } from "@/lib/errors/api-error";
import { guardRequest, requireSameOrigin } from "./guard";

const envFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dsa-guard-")), ".env");

function req(method: string, headers: Record<string, string>): Request {
  return new Request("http://127.0.0.1:3000/api/v1/portfolio/accounts", {
    method,
    headers: { host: "127.0.0.1:3000", ...headers },
  });
}

async function outcome(run: () => unknown): Promise<number> {
  try {
    await run();
    return 200;
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}

afterEach(() => setEnvironmentForTests(process.env));

describe("cross-site writes are refused in every auth mode", () => {
  it("with admin auth off (the default) a write from another site's page is 403; reads and same-origin writes pass", async () => {
    setEnvironmentForTests({ ENV_FILE: envFile, ADMIN_AUTH_ENABLED: "false" });
    expect(await outcome(() => guardRequest(req("POST", { origin: "http://evil.example" }), {}))).toBe(403);
    expect(await outcome(() => guardRequest(req("DELETE", { "sec-fetch-site": "cross-site" }), {}))).toBe(403);
    // Another port of the same host is same-site for the browser but another origin.
    expect(
      await outcome(() =>
        guardRequest(req("PUT", { origin: "http://127.0.0.1:4000", "sec-fetch-site": "same-site" }), { public: true }),
      ),
    ).toBe(403);
    expect(await outcome(() => guardRequest(req("POST", { origin: "null" }), { public: true }))).toBe(403);
    expect(await outcome(() => guardRequest(req("GET", { origin: "http://evil.example" }), {}))).toBe(200);
    expect(
      await outcome(() =>
        guardRequest(req("POST", { origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" }), {}),
      ),
    ).toBe(200);
    expect(await outcome(() => guardRequest(req("POST", {}), {}))).toBe(200);
  });

  it("with admin auth on the same refusal comes before the session check", async () => {
    setEnvironmentForTests({ ENV_FILE: envFile, ADMIN_AUTH_ENABLED: "true" });
    expect(await outcome(() => guardRequest(req("POST", { origin: "http://evil.example" }), { public: true }))).toBe(
      403,
    );
  });

  it("the first admin setup needs a positive same-origin signal: no Origin at all is refused too", async () => {
    setEnvironmentForTests({ ENV_FILE: envFile });
    expect(await outcome(() => requireSameOrigin(req("POST", {})))).toBe(403);
    expect(await outcome(() => requireSameOrigin(req("POST", { origin: "http://evil.example" })))).toBe(403);
    expect(await outcome(() => requireSameOrigin(req("POST", { origin: "http://127.0.0.1:3000" })))).toBe(200);
    expect(await outcome(() => requireSameOrigin(req("POST", { "sec-fetch-site": "same-origin" })))).toBe(200);
  });
});

describe("behind a reverse proxy that rewrites Host", () => {
  it("a write from the page at PUBLIC_BASE_URL passes; foreign origins stay refused", async () => {
    const proxied = (origin: string) =>
      new Request("http://127.0.0.1:3000/api/v1/portfolio/accounts", {
        method: "POST",
        headers: { host: "127.0.0.1:3000", origin },
      });
    setEnvironmentForTests({ ENV_FILE: envFile });
    expect(await outcome(() => guardRequest(proxied("https://dsa.example.com"), {}))).toBe(403);
    setEnvironmentForTests({ ENV_FILE: envFile, PUBLIC_BASE_URL: "https://dsa.example.com/" });
    expect(await outcome(() => guardRequest(proxied("https://dsa.example.com"), {}))).toBe(200);
    expect(await outcome(() => requireSameOrigin(proxied("https://dsa.example.com")))).toBe(200);
    // Same host, another scheme or port: another origin.
    expect(await outcome(() => guardRequest(proxied("http://dsa.example.com"), {}))).toBe(403);
    expect(await outcome(() => guardRequest(proxied("https://dsa.example.com:8443"), {}))).toBe(403);
    expect(await outcome(() => guardRequest(proxied("https://evil.example"), {}))).toBe(403);
  });
});
