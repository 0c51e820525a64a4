import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/errors/api-error";
import {
  clientKey,
  FAILURES_GLOBAL,
  FAILURES_PER_CLIENT,
  loginFailed,
  loginSucceeded,
  resetLoginRateLimit,
  takeLoginAttempt,
  WINDOW_SECONDS,
} from "./login-rate-limit";

async function attempt(key: string): Promise<number> {
  try {
    await takeLoginAttempt(key);
    return 0;
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) return Number(error.headers["Retry-After"]);
    throw error;
  }
}

async function fail(key: string): Promise<number> {
  const wait = await attempt(key);
  if (wait === 0) await loginFailed();
  return wait;
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse("2026-11-22T00:00:00Z") });
  resetLoginRateLimit();
});
afterEach(() => vi.useRealTimers());

describe("docs/api.md §2 login rate limit", () => {
  it("blocks a client after 5 attempts until the window passes", async () => {
    for (let i = 0; i < FAILURES_PER_CLIENT; i++) expect(await fail("a")).toBe(0);
    expect(await attempt("a")).toBe(WINDOW_SECONDS);
    expect(await attempt("b")).toBe(0);
    vi.advanceTimersByTime(100_000);
    expect(await attempt("a")).toBe(WINDOW_SECONDS - 100);
    vi.advanceTimersByTime(WINDOW_SECONDS * 1000);
    expect(await attempt("a")).toBe(0);
  });

  it("concurrent attempts take their tokens atomically: 300 at once let exactly 5 through", async () => {
    const waits = await Promise.all(Array.from({ length: 300 }, () => attempt("burst")));
    expect(waits.filter((w) => w === 0)).toHaveLength(FAILURES_PER_CLIENT);
  });

  it("a successful login gives the client a full budget again", async () => {
    for (let i = 0; i < FAILURES_PER_CLIENT - 1; i++) await fail("c");
    await loginSucceeded("c");
    for (let i = 0; i < FAILURES_PER_CLIENT; i++) expect(await attempt("c")).toBe(0);
  });

  it("past the global cap a failing client is held back, a client without failures still gets its try", async () => {
    for (let i = 0; i < FAILURES_GLOBAL; i++) await fail(`spoofed-${i}`);
    expect(await attempt("spoofed-1")).toBeGreaterThan(0);
    expect(await attempt("fresh-client")).toBe(0);
  });

  it("the client is the last X-Forwarded-For hop (the socket address unless a trusted proxy appended one)", () => {
    const req = new Request("http://x/", { headers: { "x-forwarded-for": "1.1.1.1, 10.0.0.9" } });
    expect(clientKey(req)).toBe("10.0.0.9");
    expect(clientKey(new Request("http://x/"))).toBe("unknown");
  });
});
