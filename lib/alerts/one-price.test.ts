import { afterEach, describe, expect, it, vi } from "vitest";
import { computeIndicators } from "@/lib/analysis/engine";
import { setClock } from "@/lib/clock";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { getDailyBars, getQuote, type TQuote } from "@/lib/market";
import { clearQuoteCache } from "@/lib/market/quote-cache";
import { evaluateAlertRules } from "./evaluator";
import { createAlertRule, resolveAlertTarget } from "./rules";

// One price for alert checks: a price rule sees the price an analysis shows for the same moment. The sample
// quote is made stale here (a session older than the last daily bar, 10 % away): the analysis then shows the last
// close, and so must the alert — the raw quote would have fired this rule.

const quotes = vi.hoisted(() => ({ alter: null as ((q: TQuote) => TQuote) | null }));
vi.mock("@/lib/market/quote-cache", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/market/quote-cache")>();
  return {
    ...actual,
    getQuote: async (...args: Parameters<typeof actual.getQuote>) => {
      const result = await actual.getQuote(...args);
      return quotes.alter ? { ...result, data: quotes.alter(result.data) } : result;
    },
  };
});

withTempDatabase("alerts-one-price", { MARKET_DATA_SOURCES: "sample" });
// Thursday 2026-11-19 10:00 in Shanghai: the A-share market is open; the final bars end on Wednesday.
const OPEN = new Date("2026-11-19T02:00:00Z");
const RULE = {
  target_scope: "single_symbol",
  severity: "info",
  enabled: true,
  cooldown_policy: { cooldown_seconds: 0 },
} as const;

afterEach(() => {
  quotes.alter = null;
  clearQuoteCache();
});

describe("alert checks read the one price", () => {
  it("a stale quote gives way to the last close, as in the report: the rule sees the report's price and change", async () => {
    setClock(() => OPEN);
    const symbol = resolveAlertTarget("600519");
    const bars = (await getDailyBars(symbol, 250)).bars;
    const last = bars.at(-1)!;
    quotes.alter = (q) => ({
      ...q,
      price: Math.round(last.close * 1.1 * 100) / 100,
      change_pct: 9.9,
      time: "2026-11-17T15:00:00+08:00",
    });
    const stale = (await getQuote(symbol)).data;
    const report = computeIndicators({ bars, quote: stale, market: "cn" });
    expect(report.quote_merge).toBe("ignored_stale");
    expect(report.price).toBe(last.close);

    const above = await createAlertRule({
      alert_type: "price_cross",
      target: "600519",
      parameters: { direction: "above", price: Math.round(last.close * 1.05 * 100) / 100 },
      ...RULE,
    });
    const change = await createAlertRule({
      alert_type: "price_change_percent",
      target: "600519",
      parameters: { direction: report.change_pct! >= 0 ? "up" : "down", change_pct: 5 },
      ...RULE,
    });
    const result = await evaluateAlertRules({ deliver: async () => ({ status: "sent", detail: {} }), dryRun: true });
    const seen = (id: number) => result.checked.find((c) => c.rule_id === id)!;
    expect(seen(above.id)).toMatchObject({ status: "not_triggered", triggered: false, observed_value: report.price });
    expect(stale.price).toBeGreaterThan(seen(above.id).threshold!);
    expect(seen(change.id).observed_value).toBeCloseTo(report.change_pct!, 4);
    expect(seen(change.id).triggered).toBe(Math.abs(report.change_pct!) >= 5);
  });

  it("a current quote is the price for the rule and the report alike", async () => {
    setClock(() => OPEN);
    const symbol = resolveAlertTarget("600519");
    const bars = (await getDailyBars(symbol, 250)).bars;
    const quote = (await getQuote(symbol)).data;
    const report = computeIndicators({ bars, quote, market: "cn" });
    expect(report.quote_merge).toBe("appended");
    const rule = await createAlertRule({
      alert_type: "price_cross",
      target: "600519",
      parameters: { direction: "below", price: report.price! + 1 },
      ...RULE,
    });
    const result = await evaluateAlertRules({
      deliver: async () => ({ status: "sent", detail: {} }),
      dryRun: true,
      ruleIds: [rule.id],
    });
    expect(result.checked[0]).toMatchObject({ status: "triggered", triggered: true, observed_value: report.price });
  });
});
