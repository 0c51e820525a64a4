import { afterEach, describe, expect, it, vi } from "vitest";
import { setEnvironmentForTests } from "@/lib/settings/settings";
import { bodyResponse, fixtureBytes, replay } from "@/tests/kits/market-replay";
import { chainDailyBars, chainQuote, configuredChain, MarketDataUnavailableError, type ChainOptions } from "./chain";
import { createEastmoneyProvider } from "./eastmoney";
import { createTencentProvider } from "./tencent";
import { TransientProviderError, type MarketDataProvider, type TDailyBar, type TMarketSymbol } from "./types";

afterEach(() => {
  vi.unstubAllGlobals();
  setEnvironmentForTests(process.env);
});

const aapl: TMarketSymbol = { kind: "stock", market: "us", code: "AAPL" };
const bar = (date: string, source: TDailyBar["source"] = "sample"): TDailyBar => ({
  date,
  open: 10,
  high: 11,
  low: 9,
  close: 10.5,
  volume: 0,
  amount: 0,
  turnover_rate: 0,
  source,
});

function fake(
  name: MarketDataProvider["name"],
  impl: Partial<MarketDataProvider> = {},
): MarketDataProvider & { calls: number } {
  const p = {
    name,
    calls: 0,
    serves: () => true,
    async dailyBars() {
      p.calls += 1;
      return [bar("2026-01-05", name)];
    },
    async quote() {
      p.calls += 1;
      return null;
    },
    ...impl,
  };
  if (impl.dailyBars) {
    const inner = impl.dailyBars;
    p.dailyBars = async (...args: Parameters<MarketDataProvider["dailyBars"]>) => {
      p.calls += 1;
      return inner(...args);
    };
  }
  return p;
}

const opts = (providers: ChainOptions["providers"], extra: Partial<ChainOptions> = {}): ChainOptions => ({
  providers,
  timeoutMs: 200,
  backoffMs: 1,
  ...extra,
});

describe("fallback chain", () => {
  it("the first provider that answers wins; order is the configured order", async () => {
    const a = fake("eastmoney");
    const b = fake("tencent");
    const r = await chainDailyBars(aapl, 5, opts([a, b]));
    expect(r.source).toBe("eastmoney");
    expect(b.calls).toBe(0);
    expect(r.attempts).toEqual([{ provider: "eastmoney", ok: true, reason: null, ms: expect.any(Number), retries: 0 }]);
  });

  it("failure, empty answer and garbage each fall through, every attempt recorded in order", async () => {
    const failing = fake("eastmoney", {
      dailyBars: async () => {
        throw new Error("HTTP 403");
      },
    });
    const empty = fake("tencent", { dailyBars: async () => [] });
    const garbage = fake("yahoo", {
      dailyBars: async () => [{ date: "yesterday", open: "n/a" }] as unknown as TDailyBar[],
    });
    const good = fake("sample");
    const r = await chainDailyBars(aapl, 5, opts([failing, empty, garbage, good]));
    expect(r.source).toBe("sample");
    expect(r.attempts.map((a) => [a.provider, a.ok])).toEqual([
      ["eastmoney", false],
      ["tencent", false],
      ["yahoo", false],
      ["sample", true],
    ]);
    expect(r.attempts[0]!.reason).toBe("error: HTTP 403");
    expect(r.attempts[1]!.reason).toBe("empty");
    expect(r.attempts[2]!.reason).toMatch(/^schema: /);
  });

  it("a provider past MARKET_DATA_TIMEOUT_MS is aborted (its signal fires) and the next one answers", async () => {
    let sawAbort = false;
    const slow = fake("eastmoney", {
      dailyBars: (_s, _d, ctx) =>
        new Promise(() =>
          ctx.signal.addEventListener("abort", () => {
            sawAbort = true;
          }),
        ),
    });
    const r = await chainDailyBars(aapl, 5, opts([slow, fake("tencent")], { timeoutMs: 40 }));
    expect(r.source).toBe("tencent");
    expect(sawAbort).toBe(true);
    expect(r.attempts[0]).toMatchObject({ provider: "eastmoney", ok: false, reason: "timeout after 40 ms" });
    expect(r.attempts[0]!.ms).toBeGreaterThanOrEqual(35);
  });

  it("transient errors (network, 5xx) are retried with backoff; others are not", async () => {
    let n = 0;
    const flaky = fake("eastmoney", {
      dailyBars: async () => {
        n += 1;
        if (n < 3) throw new TransientProviderError("HTTP 502");
        return [bar("2026-01-05")];
      },
    });
    const r = await chainDailyBars(aapl, 5, opts([flaky], { retries: 2 }));
    expect(r.attempts[0]).toMatchObject({ ok: true, retries: 2 });
    expect(n).toBe(3);

    let m = 0;
    const denied = fake("tencent", {
      dailyBars: async () => {
        m += 1;
        throw new Error("HTTP 404");
      },
    });
    await expect(chainDailyBars(aapl, 5, opts([denied], { retries: 2 }))).rejects.toBeInstanceOf(
      MarketDataUnavailableError,
    );
    expect(m).toBe(1);
  });

  it("a 5xx from the real client is retried then falls through to the next provider", async () => {
    const { calls } = replay([
      [(u) => u.host === "push2.eastmoney.com", () => new Response("bad gateway", { status: 502 })],
      [(u) => u.host === "qt.gtimg.cn", bodyResponse(fixtureBytes("tencent/qt-sh600519.gbk.txt"))],
    ]);
    const moutai: TMarketSymbol = { kind: "stock", market: "cn", code: "600519" };
    const r = await chainQuote(moutai, opts([createEastmoneyProvider(), createTencentProvider()], { retries: 1 }));
    expect(r.source).toBe("tencent");
    expect(r.data.price).toBe(1277.96);
    expect(r.attempts[0]).toMatchObject({
      provider: "eastmoney",
      ok: false,
      reason: "transient: HTTP 502",
      retries: 1,
    });
    expect(calls.filter((u) => u.host === "push2.eastmoney.com")).toHaveLength(2);
  });

  it("a provider is never called for a market it does not serve", async () => {
    const cnOnly = fake("eastmoney", { serves: (s) => s.market === "cn" });
    const r = await chainDailyBars(aapl, 5, opts([cnOnly, fake("tencent")]));
    expect(cnOnly.calls).toBe(0);
    expect(r.attempts[0]).toMatchObject({ provider: "eastmoney", ok: false, reason: "does not serve us stock", ms: 0 });
  });

  it("when every provider fails the error carries all attempts", async () => {
    const err = await chainQuote(aapl, opts([fake("eastmoney"), fake("tencent")])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MarketDataUnavailableError);
    expect((err as MarketDataUnavailableError).attempts.map((a) => a.reason)).toEqual(["empty", "empty"]);
    expect((err as Error).message).toContain("eastmoney (empty)");
  });

  it("zero values stay 0 through the chain (volume, amount, turnover)", async () => {
    const r = await chainDailyBars(aapl, 5, opts([fake("sample")]));
    expect(r.data[0]).toMatchObject({ volume: 0, amount: 0, turnover_rate: 0 });
  });

  it("MARKET_DATA_SOURCES sets the order and timeout; default eastmoney,tencent,yahoo; unknown names are skipped", () => {
    setEnvironmentForTests({ ENV_FILE: "/nonexistent/.env" });
    expect(configuredChain().providers.map((p) => ("unknown" in p ? p.unknown : p.name))).toEqual([
      "eastmoney",
      "tencent",
      "yahoo",
    ]);
    expect(configuredChain().timeoutMs).toBe(8000);
    setEnvironmentForTests({
      ENV_FILE: "/nonexistent/.env",
      MARKET_DATA_SOURCES: " Sample, sina ",
      MARKET_DATA_TIMEOUT_MS: "500",
    });
    expect(configuredChain().providers.map((p) => ("unknown" in p ? p.unknown : p.name))).toEqual(["sample", "sina"]);
    expect(configuredChain().timeoutMs).toBe(500);
  });
});
