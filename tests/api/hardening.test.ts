import http from "node:http";
import net from "node:net";
import { describe, expect, inject, it } from "vitest";

// Hardening over HTTP against the real server (admin auth off, the default): what an outside probe found.

const base = inject("baseUrl");

/** A raw request (fetch refuses TRACE and normalises paths), answered as status, headers and text. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const json = { "content-type": "application/json" };

describe("lone UTF-16 surrogates are 422 at the parse layer, never 500", () => {
  it("every listed route answers 422 validation_error for a body otherwise valid", async () => {
    const account = await (
      await fetch(`${base}/api/v1/portfolio/accounts`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ name: "surrogate-base" }),
      })
    ).json();
    const signal = await (
      await fetch(`${base}/api/v1/decision-signals`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({
          stock_code: "600519",
          market: "cn",
          source_type: "agent",
          trigger_source: "api-test",
          action: "buy",
          trace_id: "surrogate-1",
        }),
      })
    ).json();
    const lone = "\\ud800";
    const cases: [string, string, string][] = [
      ["POST", "/api/v1/portfolio/accounts", `{"name":"acc${lone}"}`],
      ["PUT", `/api/v1/portfolio/accounts/${account.id}`, `{"name":"acc${lone}"}`],
      [
        "POST",
        "/api/v1/portfolio/trades",
        `{"account_id":${account.id},"side":"buy","symbol":"600519","quantity":100,"price":10,"fee":0,"trade_date":"2026-06-01","note":"n${lone}"}`,
      ],
      [
        "POST",
        "/api/v1/decision-signals",
        `{"stock_code":"600519","market":"cn","source_type":"agent","trigger_source":"t${lone}","action":"buy"}`,
      ],
      ["PUT", `/api/v1/decision-signals/${signal.item.id}/feedback`, `{"feedback_value":"useful","note":"x${lone}"}`],
      [
        "POST",
        "/api/v1/alerts/rules",
        `{"alert_type":"price_cross","target":"600519","parameters":{"direction":"above","price":1},"name":"r${lone}"}`,
      ],
    ];
    for (const [method, path, body] of cases) {
      const res = await raw(method, path, json, body);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(422);
      expect(JSON.parse(res.text)).toMatchObject({ error: "validation_error" });
    }
  });
});

describe("cross-site writes and non-JSON bodies with admin auth off", () => {
  it("a text/plain form post from another page is refused (403 by Origin, 415 by type) and changes nothing", async () => {
    const body = JSON.stringify({ authEnabled: true, password: "attacker-pw", passwordConfirm: "attacker-pw" });
    const forged = await fetch(`${base}/api/v1/auth/settings`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: "http://evil.example" },
      body,
    });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ error: "forbidden" });
    const plain = await fetch(`${base}/api/v1/portfolio/accounts`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ name: "plain" }),
    });
    expect(plain.status).toBe(415);
    expect(await plain.json()).toMatchObject({ error: "unsupported_media_type" });
    const analyze = await fetch(`${base}/api/v1/analysis/analyze`, {
      method: "POST",
      headers: { ...json, "sec-fetch-site": "cross-site" },
      body: JSON.stringify({ stock_code: "600519", async_mode: true }),
    });
    expect(analyze.status).toBe(403);
    expect(await (await fetch(`${base}/api/v1/auth/status`)).json()).toMatchObject({
      authEnabled: false,
      setupState: "no_password",
    });
  });

  it("the first admin setup without a same-origin Origin is refused", async () => {
    const body = JSON.stringify({ authEnabled: true, password: "owner-pass", passwordConfirm: "owner-pass" });
    const res = await fetch(`${base}/api/v1/auth/settings`, { method: "POST", headers: json, body });
    expect(res.status).toBe(403);
    expect(await (await fetch(`${base}/api/v1/auth/status`)).json()).toMatchObject({ authEnabled: false });
  });
});

describe("DNS rebinding: only host names that cannot be pointed here from outside are served", () => {
  it("a write and a read for a foreign Host are 403 before routing (pages too); localhost and IPs are served", async () => {
    const before = await (await fetch(`${base}/api/v1/portfolio/accounts`)).json();
    const write = await raw(
      "POST",
      "/api/v1/portfolio/accounts",
      { ...json, host: "rebind.attacker.example", origin: "http://rebind.attacker.example" },
      JSON.stringify({ name: "rebound" }),
    );
    expect(write.status).toBe(403);
    expect(JSON.parse(write.text)).toMatchObject({ error: "forbidden" });
    expect(JSON.parse(write.text).message).toContain("ALLOWED_HOSTS");
    expect(write.headers["x-trace-id"]).toMatch(/^[0-9a-f]{32}$/);
    const read = await raw("GET", "/api/v1/auth/status", { host: "rebind.attacker.example:3000" });
    expect(read.status).toBe(403);
    const page = await raw("GET", "/settings", { host: "rebind.attacker.example" });
    expect(page.status).toBe(403);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    const after = await (await fetch(`${base}/api/v1/portfolio/accounts`)).json();
    expect(after.accounts.length).toBe(before.accounts.length);
    const port = new URL(base).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`])
      expect((await raw("GET", "/api/v1/health", { host })).status, host).toBe(200);
  });
});

describe("malformed request lines answer in our shapes", () => {
  it("a malformed percent-escape on an API path is 400 with the JSON envelope and a trace id", async () => {
    for (const path of ["/api/v1/history/%ff", "/api/v1/history/%"]) {
      const res = await raw("GET", path);
      expect(res.status, path).toBe(400);
      expect(JSON.parse(res.text)).toMatchObject({ error: "invalid_request" });
      expect(res.headers["x-trace-id"]).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it("on a UI path it is an HTML error page", async () => {
    const res = await raw("GET", "/history/%ff");
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toMatch(/text\/html/);
    expect(res.text).toMatch(/<!doctype html>/i);
  });

  it("TRACE is 405 with Allow and the JSON envelope", async () => {
    const res = await raw("TRACE", "/api/v1/health");
    expect(res.status).toBe(405);
    expect(res.headers.allow).toContain("GET");
    expect(JSON.parse(res.text)).toMatchObject({ error: "method_not_allowed" });
    expect(res.headers["x-trace-id"]).toBeTruthy();
  });
});

describe("fuzz: what Next or Node would answer outside the envelope", () => {
  it("a method the matched route does not export is 405 JSON with Allow (was Next's empty 405)", async () => {
    // ./ resolves to /api/v1/decision-signals/status: the {signal_id} route, which serves GET only.
    for (const path of ["/api/v1/decision-signals/./status", "/api/v1/decision-signals/outcomes"]) {
      const res = await raw("PATCH", path, json, "{}");
      expect(res.status, path).toBe(405);
      expect(JSON.parse(res.text)).toMatchObject({ error: "method_not_allowed", message: expect.any(String) });
      expect(res.headers.allow).toBe("GET, HEAD, OPTIONS");
      expect(res.headers["x-trace-id"]).toMatch(/^[0-9a-f]{32}$/);
    }
    expect((await raw("HEAD", "/api/v1/decision-signals/outcomes")).status).toBe(200);
  });

  it("a request line past Node's header limit is 431 JSON with a trace id (was a bare status line)", async () => {
    const res = await raw("GET", `/api/v1/history?stock_code=${"x".repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect(JSON.parse(res.text)).toMatchObject({ error: "request_header_too_large", message: expect.any(String) });
    expect(res.headers["x-trace-id"]).toMatch(/^[0-9a-f]{32}$/);
  });

  it("bytes that are not HTTP are 400 invalid_request", async () => {
    const url = new URL(base);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => socket.end("NOT-HTTP \u0001\r\n\r\n"));
      let out = "";
      socket.on("data", (chunk) => (out += chunk.toString("utf8")));
      socket.on("end", () => resolve(out));
      socket.on("error", reject);
    });
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toMatchObject({ error: "invalid_request" });
  });

  it("a body of 100,000 nested arrays is 422 too_deep (was a stack overflow, 500)", async () => {
    const res = await raw(
      "POST",
      "/api/v1/portfolio/accounts",
      json,
      `{"name":"deep","x":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
    );
    expect(res.status).toBe(422);
    expect(JSON.parse(res.text)).toMatchObject({ error: "validation_error", detail: [{ type: "too_deep" }] });
  });
});

describe("security headers on every HTML response", () => {
  it("pages and the docs carry CSP with frame-ancestors 'none', nosniff and a Referrer-Policy", async () => {
    for (const path of ["/", "/history", "/settings", "/docs"]) {
      const res = await fetch(`${base}${path}`, { headers: { accept: "text/html" } });
      expect(res.status, path).toBe(200);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp, path).toMatch(/frame-ancestors 'none'/);
      expect(csp, path).toMatch(/default-src 'self'/);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
    }
  });
});
