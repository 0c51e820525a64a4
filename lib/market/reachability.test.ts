import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { bodyResponse, fixtureBytes, replay } from "@/tests/kits/market-replay";
import { marketDataReachability, resetReachability } from "./reachability";

function sources(list: string): void {
  setEnvironmentForTests({ MARKET_DATA_SOURCES: list, MARKET_DATA_TIMEOUT_MS: "2000" });
}

beforeEach(() => resetReachability());
afterEach(() => {
  vi.unstubAllGlobals();
  setEnvironmentForTests({});
  resetReachability();
});

describe("market-data reachability", () => {
  it("offline, the default network sources are unreachable and each names its failure", async () => {
    sources("eastmoney,tencent,yahoo");
    replay([]);
    const reach = await marketDataReachability();
    expect(reach.unreachable).toBe(true);
    expect(reach.network.map((r) => r.provider)).toEqual(["eastmoney", "tencent", "yahoo"]);
    for (const r of reach.network) {
      expect(r.ok).toBe(false);
      expect(r.reason).toMatch(/network error: fetch failed/);
    }
  });

  it("one answering provider is enough", async () => {
    sources("eastmoney,tencent");
    replay([[(u) => u.host === "qt.gtimg.cn", bodyResponse(fixtureBytes("tencent/qt-sh600519.gbk.txt"))]]);
    const reach = await marketDataReachability();
    expect(reach.unreachable).toBe(false);
    expect(reach.network).toEqual([
      { provider: "eastmoney", ok: false, reason: expect.stringMatching(/fetch failed/) },
      { provider: "tencent", ok: true, reason: null },
    ]);
  });

  it("sample data in the list stands in; local sources are never probed", async () => {
    sources("csv,eastmoney,sample");
    const { calls } = replay([]);
    const reach = await marketDataReachability();
    expect(reach.unreachable).toBe(false);
    expect(reach.offline).toEqual(["csv", "sample"]);
    expect(new Set(calls.map((u) => u.host)).size).toBeGreaterThan(0);
    expect(calls.every((u) => u.host.includes("eastmoney"))).toBe(true);
  });

  it("a minute's memo per source list: a second ask does not probe again, a changed list does", async () => {
    sources("yahoo");
    const { calls } = replay([]);
    await marketDataReachability();
    const first = calls.length;
    await marketDataReachability();
    expect(calls.length).toBe(first);
    sources("tencent");
    await marketDataReachability();
    expect(calls.length).toBeGreaterThan(first);
  });
});
