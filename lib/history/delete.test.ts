import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { deleteHistoryByCode } from "./delete";

// Spec 4.3 rule 1 / spec 8: delete by code in passes (one transaction each) removes every record of the
// code with its news, unlinks the decision signals that cite them, and leaves other codes alone. Small
// passes here, so a run takes several and the last one is partial. SQLite, and PostgreSQL in unit-pg.

withTempDatabase("history-delete");

let seq = 0;
async function record(targetKey: string, code: string): Promise<number> {
  seq += 1;
  const row = await db().analysisHistory.create({
    data: {
      queryId: `del-${seq}`,
      stockCode: code,
      displayCode: code,
      market: "cn",
      targetKey,
      reportType: "detailed",
      reportLanguage: "zh",
      reportJson: "{}",
      createdAt: new Date(Date.UTC(2026, 4, 1) + seq * 60_000),
      news: { create: [{ position: 0, title: `n${seq}`, snippet: "s", url: `https://news.example.com/${seq}` }] },
    },
  });
  return row.id;
}

async function signalCiting(reportId: number, code: string): Promise<number> {
  const now = new Date();
  const signal = await db().decisionSignal.create({
    data: {
      stockCode: code,
      market: "cn",
      assetType: "stock",
      targetKey: `stock:cn:${code}`,
      sourceType: "analysis",
      sourceReportId: reportId,
      triggerSource: "test",
      action: "buy",
      horizon: "short",
      planQuality: "complete",
      status: "active",
      createdAt: now,
      updatedAt: now,
    },
  });
  return signal.id;
}

describe("delete by code in passes", () => {
  it("removes all 23 records of the code in passes of 5 with their news, unlinks signals, keeps the other code", async () => {
    const moutai: number[] = [];
    const other: number[] = [];
    for (let i = 0; i < 23; i++) {
      moutai.push(await record("stock:cn:600519", i % 2 ? "600519" : "600519.SH"));
      if (i % 4 === 0) other.push(await record("stock:cn:000001", "000001"));
    }
    const cited = await signalCiting(moutai[7]!, "600519");
    const kept = await signalCiting(other[0]!, "000001");

    expect(await deleteHistoryByCode("600519", 5)).toBe(23);

    expect(await db().analysisHistory.count({ where: { id: { in: moutai } } })).toBe(0);
    expect(await db().analysisNews.count({ where: { historyId: { in: moutai } } })).toBe(0);
    expect(await db().analysisHistory.count()).toBe(other.length);
    expect(await db().analysisNews.count()).toBe(other.length);
    expect((await db().decisionSignal.findUniqueOrThrow({ where: { id: cited } })).sourceReportId).toBeNull();
    expect((await db().decisionSignal.findUniqueOrThrow({ where: { id: kept } })).sourceReportId).toBe(other[0]);
    const targets = await db().historyTarget.findMany({ orderBy: { targetKey: "asc" } });
    expect(targets).toEqual([
      { targetKey: "stock:cn:000001", latestId: Math.max(...other), recordCount: other.length },
      { targetKey: "stock:cn:600519", latestId: 0, recordCount: 0 },
    ]);

    expect(await deleteHistoryByCode("600519", 5)).toBe(0);
  });
});
