import { vi } from "vitest";

// Test support for news providers: a stubbed global fetch that sees the whole request (method, headers,
// JSON body) so tests can check how each key was sent, and that can hang until the request is aborted.
// Bodies come from tests/fixtures/market-data through lib/market/testing/replay's fixture helpers.

export interface StubCall {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export type StubHandler = (call: StubCall, signal: AbortSignal | undefined) => Response | Promise<Response>;

export function stubFetch(handler: StubHandler): { calls: StubCall[] } {
  const calls: StubCall[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      const body = typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : undefined;
      const call = { url, method: init?.method ?? "GET", headers, body };
      calls.push(call);
      return handler(call, init?.signal ?? undefined);
    }),
  );
  return { calls };
}

/** A reply that never comes: rejects only when the request is aborted (timeouts, cancellation). */
export function hang(signal: AbortSignal | undefined): Promise<Response> {
  return new Promise((_, reject) => {
    signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

export function json(body: unknown, status = 200): Response {
  return new Response(typeof body === "string" ? body : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}
