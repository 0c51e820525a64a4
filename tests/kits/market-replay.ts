import fs from "node:fs";
import path from "node:path";
import { vi } from "vitest";

// Test support: recorded provider bodies from tests/fixtures/market-data (a copy of the team's shared
// recordings, README and provenance included, so a clone tests on its own), replayed through a stubbed
// global fetch (the layer the providers call), so no test ever reaches the live network.
export const FIXTURES = path.resolve(process.cwd(), "tests/fixtures/market-data");

export function fixtureBytes(relative: string): Buffer {
  return fs.readFileSync(path.join(FIXTURES, relative));
}

export function fixtureText(relative: string): string {
  return fixtureBytes(relative).toString("utf8");
}

type Answer = Response | (() => Response | Promise<Response>);
export type Route = [match: (url: URL) => boolean, answer: Answer];

export function bodyResponse(body: Buffer | string, status = 200): Response {
  return new Response(typeof body === "string" ? body : new Uint8Array(body), { status });
}

/** Stub global fetch with routes; unmatched URLs fail like a refused connection. Returns the URLs asked. */
export function replay(routes: Route[]): { calls: URL[] } {
  const calls: URL[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string | URL | Request) => {
      const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
      calls.push(url);
      const route = routes.find(([match]) => match(url));
      if (!route) throw new TypeError(`fetch failed (no recorded reply for ${url.href})`);
      const answer = route[1];
      return typeof answer === "function" ? answer() : answer.clone();
    }),
  );
  return { calls };
}

export const signal = (): AbortSignal => new AbortController().signal;
