import { afterEach, describe, expect, it, vi } from "vitest";
import { bareBenchRoute, wrappedBenchRoute } from "./bench-routes";

// The request-overhead bench's two routes answer the same JSON, but only in a service started for the
// bench; anywhere else they are indistinguishable from an unknown /api path.

const ctx = { params: Promise.resolve({}) };
const get = (path: string) => new Request(`http://test${path}`);

afterEach(() => vi.unstubAllEnvs());

describe("bench routes", () => {
  it("answer 404 not_found like any unknown /api path unless DSA_BENCH_ROUTES=1", async () => {
    vi.stubEnv("DSA_BENCH_ROUTES", "");
    for (const res of [
      await bareBenchRoute(get("/api/bench/bare")),
      await wrappedBenchRoute(get("/api/bench/wrapped"), ctx),
    ]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: "not_found" });
    }
  });

  it("with DSA_BENCH_ROUTES=1 both give the same answer; only the wrapped one has a trace id and validates its query", async () => {
    vi.stubEnv("DSA_BENCH_ROUTES", "1");
    const bare = await bareBenchRoute(get("/api/bench/bare?n=3"));
    const wrapped = await wrappedBenchRoute(get("/api/bench/wrapped?n=3"), ctx);
    expect(bare.status).toBe(200);
    expect(wrapped.status).toBe(200);
    const [a, b] = [await bare.json(), await wrapped.json()];
    expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
    expect(a).toMatchObject({ status: "ok", n: 3 });
    expect(b).toMatchObject({ status: "ok", n: 3 });
    expect(bare.headers.get("x-trace-id")).toBeNull();
    expect(wrapped.headers.get("x-trace-id")).toMatch(/\S/);
    const invalid = await wrappedBenchRoute(get("/api/bench/wrapped?n=abc"), ctx);
    expect(invalid.status).toBe(422);
  });

  it("with DSA_BENCH_ROUTES=1 the bare route sends a binary body of the asked size (the share-image bench's floor)", async () => {
    vi.stubEnv("DSA_BENCH_ROUTES", "1");
    const res = await bareBenchRoute(get("/api/bench/bare?bytes=365000"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect((await res.arrayBuffer()).byteLength).toBe(365000);
    for (const bad of ["0", "-5", "1.5", "abc", String(64 * 1024 * 1024)]) {
      const fallback = await bareBenchRoute(get(`/api/bench/bare?bytes=${bad}`));
      expect(await fallback.json()).toMatchObject({ status: "ok" });
    }
  });
});
