import { describe, expect, it } from "vitest";
import { analyzeRequest } from "@/lib/analysis/analyze";
import { ZAnalyzeRequest } from "@/lib/analysis/schemas";
import { setClock } from "@/lib/clock";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import type { TAnalysisReport } from "@/lib/history/schemas";
import { createSignal } from "@/lib/signals/create";
import { levelPrice } from "@/lib/signals/from-analysis";
import { positionKey, positionVerdicts, type PositionPrice } from "./position-verdicts";

// Each position's latest verdict and the stop of that report, on sample data.

withTempDatabase("position-verdicts", { MARKET_DATA_SOURCES: "sample" });

const at = (symbol: string, market: string, last_price: number, price_available = true): PositionPrice => ({
  symbol,
  market,
  last_price,
  price_available,
});

async function analyse(code: string): Promise<TAnalysisReport> {
  const result = await analyzeRequest(
    ZAnalyzeRequest.parse({ stock_code: code, notify: false, report_type: "simple" }),
    `trace-verdicts-${code}`,
  );
  if (result.status !== 200) throw new Error(`analysis of ${code} answered ${result.status}`);
  return result.body.report;
}

function linkedSignal(report: TAnalysisReport, action: "hold" | "sell", stop: number) {
  return createSignal({
    stock_code: "600519",
    market: "cn",
    source_type: "manual",
    source_report_id: report.meta.id!,
    trigger_source: "verdicts-test",
    action,
    stop_loss: stop,
    status: "active",
  });
}

describe("positionVerdicts", () => {
  it("a stock never analysed has no verdict", async () => {
    expect(await positionVerdicts([at("600519", "cn", 1500)])).toEqual({});
    expect(await positionVerdicts([])).toEqual({});
  });

  it("shows the latest report's action, score and numeric stop, and flags a price under a protective stop", async () => {
    // Thursday 2026-11-19 10:00 in Shanghai: the sample report of that moment is fixed.
    setClock(() => new Date("2026-11-19T02:00:00Z"));
    await analyse("600519");
    const report = await analyse("sh600519");
    const stop = levelPrice(report.strategy.stop_loss);
    expect(stop, "the sample report names a stop").not.toBeNull();
    const key = positionKey({ market: "cn", symbol: "600519" });

    const above = (await positionVerdicts([at("600519", "cn", stop! + 1), at("AAPL", "us", 200)]))[key]!;
    expect(above).toMatchObject({
      recordId: report.meta.id,
      action: report.summary.action,
      score: report.summary.sentiment_score,
      stop,
      belowStop: false,
    });
    expect(above.stopSide).toBe(["reduce", "sell", "avoid"].includes(report.summary.action ?? "") ? "above" : "below");

    const under = (await positionVerdicts([at("600519", "cn", stop! - 1)]))[key]!;
    expect(under.belowStop).toBe(under.stopSide === "below");
    // No price: no flag, whatever the stop.
    expect((await positionVerdicts([at("600519", "cn", stop! - 1, false)]))[key]!.belowStop).toBe(false);
  });

  it("a decision signal linked to the report holds the stop; a short-side stop above the price never flags", async () => {
    const report = await analyse("600519");
    const price = report.meta.current_price!;
    const key = positionKey({ market: "cn", symbol: "600519" });

    const hold = await linkedSignal(report, "hold", Math.round(price * 1.05 * 100) / 100);
    const flagged = (await positionVerdicts([at("600519", "cn", price)]))[key]!;
    expect(flagged).toMatchObject({
      recordId: report.meta.id,
      stop: hold.item.stop_loss,
      stopSignalId: hold.item.id,
      stopSide: "below",
      belowStop: true,
    });

    const sell = await linkedSignal(report, "sell", Math.round(price * 1.08 * 100) / 100);
    const short = (await positionVerdicts([at("600519", "cn", price)]))[key]!;
    expect(short).toMatchObject({
      stop: sell.item.stop_loss,
      stopSignalId: sell.item.id,
      stopSide: "above",
      belowStop: false,
    });

    // A newer report without linked signals takes over: its own strategy stop.
    const next = await analyse("600519");
    const latest = (await positionVerdicts([at("600519", "cn", price)]))[key]!;
    expect(latest).toMatchObject({
      recordId: next.meta.id,
      action: next.summary.action,
      stop: levelPrice(next.strategy.stop_loss),
    });
    expect([hold.item.id, sell.item.id]).not.toContain(latest.stopSignalId);
  });
});
