import { afterEach, describe, expect, it } from "vitest";
import { setClock } from "@/lib/clock";
import { clearFailures, clientKey, FAILURES_GLOBAL, FAILURES_PER_CLIENT, recordFailure, resetLoginRateLimit, retryAfterSeconds, WINDOW_MS } from "./login-rate-limit";

let t = Date.parse("2026-11-22T00:00:00Z");
setClock(() => new Date(t));

afterEach(() => {
  resetLoginRateLimit();
});

describe("CONTRACT §2 login rate limit", () => {
  it("blocks a client after 5 failures until the oldest leaves the 300 s window", () => {
    for (let i = 0; i < FAILURES_PER_CLIENT - 1; i++) recordFailure("a");
    expect(retryAfterSeconds("a")).toBe(0);
    recordFailure("a");
    expect(retryAfterSeconds("a")).toBe(WINDOW_MS / 1000);
    expect(retryAfterSeconds("b")).toBe(0);
    t += 100_000;
    expect(retryAfterSeconds("a")).toBe(200);
    t += 200_000;
    expect(retryAfterSeconds("a")).toBe(0);
  });

  it("a successful login clears the client's failures", () => {
    for (let i = 0; i < FAILURES_PER_CLIENT; i++) recordFailure("c");
    clearFailures("c");
    expect(retryAfterSeconds("c")).toBe(0);
  });

  it("rotating client addresses still hits the global cap", () => {
    for (let i = 0; i < FAILURES_GLOBAL; i++) recordFailure(`spoofed-${i}`);
    expect(retryAfterSeconds("fresh-client")).toBeGreaterThan(0);
  });

  it("the client is the last X-Forwarded-For hop", () => {
    const req = new Request("http://x/", { headers: { "x-forwarded-for": "1.1.1.1, 10.0.0.9" } });
    expect(clientKey(req)).toBe("10.0.0.9");
    expect(clientKey(new Request("http://x/"))).toBe("unknown");
  });
});
