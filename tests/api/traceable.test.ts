import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZAnalysisResultResponse } from "@/lib/analysis/schemas";
import type { TIndicators } from "@/lib/analysis/engine/schemas";
import { ZHistoryListResponse } from "@/lib/history/schemas";
import { sampleCatalogueKeys } from "@/lib/market";
import { startTestServer, type TestServer } from "../setup/api-server";

// On stored records (sample data, over HTTP): one price everywhere, and every
// indicator recomputed here, independently, from the bars the record keeps.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ MARKET_DATA_SOURCES: "sample" });
});
afterAll(() => server?.stop());

interface Bar {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number | null;
}

// ---- textbook definitions, written here on purpose (not imported from the engine) ----
const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const sma = (xs: readonly number[], n: number) => (xs.length < n ? null : mean(xs.slice(-n)));

/** EMA seeded with the first value, α = 2 / (n + 1). */
function emaSeries(xs: readonly number[], n: number): number[] {
  const a = 2 / (n + 1);
  const out: number[] = [];
  for (const x of xs) out.push(out.length === 0 ? x : a * x + (1 - a) * out.at(-1)!);
  return out;
}

/** Wilder smoothing: the first value is the plain mean of n inputs, then prev + (x − prev) / n. */
function wilder(xs: readonly number[], n: number): number | null {
  if (xs.length < n) return null;
  let v = mean(xs.slice(0, n));
  for (const x of xs.slice(n)) v += (x - v) / n;
  return v;
}

function rsi(closes: readonly number[], n: number): number | null {
  const gains: number[] = [];
  const losses: number[] = [];
  for (let i = 1; i < closes.length; i += 1) {
    const d = closes[i]! - closes[i - 1]!;
    gains.push(Math.max(d, 0));
    losses.push(Math.max(-d, 0));
  }
  const g = wilder(gains, n);
  const l = wilder(losses, n);
  if (g === null || l === null) return null;
  return l === 0 ? 100 : 100 - 100 / (1 + g / l);
}

function atr(bars: readonly Bar[], n: number): number | null {
  const tr = bars.map((b, i) =>
    i === 0
      ? b.high - b.low
      : Math.max(b.high - b.low, Math.abs(b.high - bars[i - 1]!.close), Math.abs(b.low - bars[i - 1]!.close)),
  );
  return wilder(tr, n);
}

function macd(closes: readonly number[]) {
  const fast = emaSeries(closes, 12);
  const slow = emaSeries(closes, 26);
  // DIF counts from the 26th close on; DEA is the 9-period EMA of those DIF values.
  const dif = closes.map((_, i) => fast[i]! - slow[i]!).slice(25);
  const dea = emaSeries(dif, 9);
  return { dif: dif.at(-1)!, dea: dea.at(-1)!, histogram: 2 * (dif.at(-1)! - dea.at(-1)!) };
}

function close(actual: number | null | undefined, expected: number | null, what: string) {
  if (expected === null) return expect(actual ?? null, what).toBeNull();
  expect(actual, what).not.toBeNull();
  expect(
    Math.abs(actual! - expected) / Math.max(1e-12, Math.abs(expected)),
    `${what}: ${actual} vs ${expected}`,
  ).toBeLessThan(1e-9);
}

async function analyze(code: string) {
  const res = await fetch(`${server.baseUrl}/api/v1/analysis/analyze`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ stock_code: code, notify: false }),
  });
  expect(res.status).toBe(200);
  return ZAnalysisResultResponse.parse(await res.json());
}

// Every stock of the sample catalogue.
const CODES = sampleCatalogueKeys().map((key) => key.split(":")[1]!);

describe("one price, traceable numbers", () => {
  it(
    "the headline price is the chart's last close and the history row's price, with its as-of moment",
    { timeout: 60_000 },
    async () => {
      for (const code of CODES) {
        const result = await analyze(code);
        const meta = result.report.meta;
        const snapshot = result.report.details.context_snapshot as {
          recent_bars: Bar[];
          as_of: { date: string; basis: string };
          indicators: TIndicators;
        };
        expect(meta.current_price, code).toBe(snapshot.recent_bars.at(-1)!.close);
        expect(meta.current_price, code).toBe(snapshot.indicators.price);
        expect(meta.change_pct, code).toBe(snapshot.indicators.change_pct);
        expect(snapshot.as_of.date, code).toBe(snapshot.recent_bars.at(-1)!.date);
        expect(["quote", "close"]).toContain(snapshot.as_of.basis);
        const history = ZHistoryListResponse.parse(
          await (await fetch(`${server.baseUrl}/api/v1/history?stock_code=${code}&limit=1`)).json(),
        );
        expect(history.items[0]).toMatchObject({
          query_id: result.query_id,
          current_price: meta.current_price,
          change_pct: meta.change_pct,
        });
        // A quote is named by the session's phase (live only while the market trades), a close by its date.
        const asOf =
          snapshot.as_of.basis === "close"
            ? new RegExp(`截至${snapshot.recent_bars.at(-1)!.date}收盘`)
            : /实时|开盘前的最新报价|收盘后的行情快照|休市中的最新报价/;
        expect(result.report.summary.analysis_summary, code).toMatch(asOf);
      }
    },
  );

  it("the structured report (CONTRACT §14.3) is made of the report's own fields, in the answer and the history detail", async () => {
    const result = await analyze("600519");
    const report = result.report;
    const structured = report.structured_report!;
    expect(structured.thesis).toBe(report.summary.analysis_summary);
    expect(structured.evidence).toEqual(report.details.evidence?.scopes ?? []);
    expect(structured.evidence_statement).toBe(report.details.evidence?.statement ?? null);
    expect(structured.data_quality).toEqual(report.details.data_quality ?? null);
    // Every level a condition names is one the plan stores.
    for (const line of structured.invalidation_conditions) {
      const level = /\d+\.\d+/.exec(line)?.[0];
      if (level)
        expect(
          [report.strategy.stop_loss, report.strategy.take_profit].some((v) => v?.includes(level)),
          line,
        ).toBe(true);
    }
    expect(structured.next_actions.length).toBeGreaterThan(0);
    const detail = await (await fetch(`${server.baseUrl}/api/v1/history/${report.meta.id}`)).json();
    expect(detail.structured_report).toEqual(structured);
  });

  it("every reported indicator recomputes from the stored bars to 1e-9 relative", { timeout: 60_000 }, async () => {
    for (const code of CODES) {
      const result = await analyze(code);
      const snapshot = result.report.details.context_snapshot as {
        indicators: TIndicators;
        indicator_bars: { columns: string[]; rows: (string | number | null)[][] };
      };
      const ind = snapshot.indicators;
      expect(snapshot.indicator_bars.columns).toEqual(["date", "open", "high", "low", "close", "volume"]);
      const bars: Bar[] = snapshot.indicator_bars.rows.map(([date, open, high, low, c, volume]) => ({
        date: date as string,
        open: open as number,
        high: high as number,
        low: low as number,
        close: c as number,
        volume: volume as number | null,
      }));
      expect(bars.length, code).toBe(ind.bars_used);
      const closes = bars.map((b) => b.close);
      const price = closes.at(-1)!;
      close(ind.price, price, `${code} price`);
      for (const n of [5, 10, 20, 60] as const) close(ind.ma[`ma${n}`], sma(closes, n), `${code} MA${n}`);
      close(ind.bias.ma5, ((price - sma(closes, 5)!) / sma(closes, 5)!) * 100, `${code} bias MA5`);
      close(ind.bias.ma20, ((price - sma(closes, 20)!) / sma(closes, 20)!) * 100, `${code} bias MA20`);
      const m = macd(closes);
      close(ind.macd!.dif, m.dif, `${code} DIF`);
      close(ind.macd!.dea, m.dea, `${code} DEA`);
      close(ind.macd!.histogram, m.histogram, `${code} MACD histogram`);
      for (const n of [6, 12, 24] as const) close(ind.rsi[`rsi${n}`], rsi(closes, n), `${code} RSI${n}`);
      close(ind.atr14, atr(bars, 14), `${code} ATR14`);
      if (ind.volume.ratio_source === "bars") {
        const previous = bars.slice(-6, -1).map((b) => b.volume!);
        close(ind.volume.ratio, bars.at(-1)!.volume! / mean(previous), `${code} volume ratio`);
      }
      const prior = bars.slice(-21, -1);
      close(ind.high_20, Math.max(...prior.map((b) => b.high)), `${code} 20-day high`);
      close(ind.low_20, Math.min(...prior.map((b) => b.low)), `${code} 20-day low`);
      // Swing levels name their bar: that bar's low (high) is the price, an extreme of two bars on each side.
      for (const level of [...ind.support, ...ind.resistance]) {
        expect(level.price < price ? ind.support : ind.resistance).toContainEqual(level);
        if (level.basis !== "swing_low" && level.basis !== "swing_high") continue;
        const i = bars.findIndex((b) => b.date === level.date);
        expect(i, `${code} ${level.basis} ${level.date}`).toBeGreaterThanOrEqual(2);
        const side = level.basis === "swing_low" ? "low" : "high";
        close(bars[i]![side], level.price, `${code} ${level.basis} ${level.date}`);
        for (const k of [i - 2, i - 1, i + 1, i + 2]) {
          if (side === "low") expect(bars[k]!.low).toBeGreaterThanOrEqual(level.price);
          else expect(bars[k]!.high).toBeLessThanOrEqual(level.price);
        }
      }
    }
  });
});
