import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { changeSincePrevious, getStockTrend, TREND_POINTS, type StockTrendPoint } from "./trend";

// A stock's score and price over its past reports (oldest → newest, at most 20), with the change
// since the previous report, for the trend beside a report's headline.

withTempDatabase("history-trend");

let seq = 0;
async function record(fields: {
  targetKey: string;
  stockCode?: string;
  score: number | null;
  price: number | null;
  dataSource?: string;
}): Promise<number> {
  seq += 1;
  const row = await db().analysisHistory.create({
    data: {
      queryId: `trend-${seq}`,
      stockCode: fields.stockCode ?? "600519",
      displayCode: fields.stockCode ?? "600519",
      market: "cn",
      targetKey: fields.targetKey,
      reportType: "detailed",
      reportLanguage: "zh",
      sentimentScore: fields.score,
      currentPrice: fields.price,
      dataSource: fields.dataSource ?? null,
      reportJson: "{}",
      createdAt: new Date(Date.UTC(2026, 4, 1) + seq * 60_000),
    },
  });
  return row.id;
}

const point = (id: number, score: number | null, price: number | null): StockTrendPoint => ({
  id,
  created_at: "",
  sentiment_score: score,
  current_price: price,
});

describe("changeSincePrevious", () => {
  it("score delta and price change in percent from the report before the last", () => {
    expect(changeSincePrevious([point(1, 40, 10), point(2, 55, 200), point(3, 48, 210)])).toEqual({
      previous_id: 2,
      score_delta: -7,
      price_change_pct: 5,
    });
  });

  it("null with one point; a missing figure gives a null change of that figure only", () => {
    expect(changeSincePrevious([point(1, 40, 10)])).toBeNull();
    expect(changeSincePrevious([])).toBeNull();
    expect(changeSincePrevious([point(1, null, 10), point(2, 50, 11)])).toEqual({
      previous_id: 1,
      score_delta: null,
      price_change_pct: expect.closeTo(10, 9),
    });
    expect(changeSincePrevious([point(1, 50, null), point(2, 50, 11)])).toEqual({
      previous_id: 1,
      score_delta: 0,
      price_change_pct: null,
    });
  });
});

describe("getStockTrend", () => {
  it("the stock's records up to the one asked for, oldest first, every code form of the stock and no other stock", async () => {
    const first = await record({ targetKey: "stock:cn:600519", score: 50, price: 1500 });
    await record({ targetKey: "stock:cn:000001", stockCode: "000001", score: 20, price: 11 });
    const second = await record({ targetKey: "stock:cn:600519", stockCode: "600519.SH", score: 62, price: 1530 });
    const later = await record({ targetKey: "stock:cn:600519", score: 70, price: 1600 });

    const trend = await getStockTrend(second);
    expect(trend.points.map((p) => [p.id, p.sentiment_score, p.current_price])).toEqual([
      [first, 50, 1500],
      [second, 62, 1530],
    ]);
    expect(trend.points[0]!.created_at < trend.points[1]!.created_at).toBe(true);
    expect(trend.change).toEqual({ previous_id: first, score_delta: 12, price_change_pct: expect.closeTo(2, 9) });

    expect((await getStockTrend(later)).points.map((p) => p.id)).toEqual([first, second, later]);
    expect((await getStockTrend(first)).change).toBeNull();
  });

  it(`at most ${TREND_POINTS} points, the newest; an unknown record has none`, async () => {
    const ids: number[] = [];
    for (let i = 0; i < TREND_POINTS + 3; i++)
      ids.push(await record({ targetKey: "stock:us:AAPL", stockCode: "AAPL", score: i, price: 100 + i }));
    const trend = await getStockTrend(ids.at(-1)!);
    expect(trend.points.map((p) => p.id)).toEqual(ids.slice(-TREND_POINTS));
    expect(trend.change).toMatchObject({ previous_id: ids.at(-2), score_delta: 1 });
    expect(await getStockTrend(999_999)).toEqual({ points: [], change: null, other_sources: 0 });
  });

  it("compares a report only with reports of its own source family: a CSV report never with a sample price", async () => {
    const key = "stock:hk:00700";
    const sample = await record({ targetKey: key, stockCode: "00700", score: 40, price: 300, dataSource: "sample" });
    const csv = await record({ targetKey: key, stockCode: "00700", score: 55, price: 410, dataSource: "csv" });
    const csvAgain = await record({ targetKey: key, stockCode: "00700", score: 60, price: 420, dataSource: "csv" });
    const trend = await getStockTrend(csvAgain);
    expect(trend.points.map((p) => p.id)).toEqual([csv, csvAgain]);
    expect(trend.change?.previous_id).toBe(csv);
    expect(trend.other_sources).toBe(1);
    expect((await getStockTrend(csv)).change).toBeNull();
    // Exchange feeds quote the same prices: eastmoney and tencent reports are compared.
    const east = await record({ targetKey: key, stockCode: "00700", score: 50, price: 430, dataSource: "eastmoney" });
    const tencent = await record({ targetKey: key, stockCode: "00700", score: 52, price: 431, dataSource: "tencent" });
    expect((await getStockTrend(tencent)).points.map((p) => p.id)).toEqual([east, tencent]);
    expect((await getStockTrend(tencent)).other_sources).toBe(3);
    void sample;
  });
});
