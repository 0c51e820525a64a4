import { afterEach, describe, expect, it } from "vitest";
import { RULE_ENGINE_VERSION } from "@/lib/analysis/engine";
import { db } from "@/lib/db/client";
import { readOneRow } from "@/lib/db/one-row";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { createNameIndex, setPreferredNameSource } from "@/lib/market/symbols";
import { createAnalysisRecord } from "../repository";
import { storedReport } from "@/tests/kits/stored-reports";
import type { ShareCard } from "./card";
import { cardKey, clearSharePngCache } from "./png-cache";
import { getShareImagePng, warmShareReads } from "./share-image";

// A repeat share-image request is served without rebuilding the card while nothing the card is made of
// has changed, and is never served past a change: of the record, of the stock-name list or of the settings. Runs on SQLite and, in the unit-pg pass, on PostgreSQL.

const database = withTempDatabase("share-repeat");

let renders = 0;
// The "PNG" is the card's content key, so the bytes served say which card they were drawn from.
const render = async (card: ShareCard) => {
  renders += 1;
  return new TextEncoder().encode(cardKey(card));
};
const share = (id: number, colors?: "red_up" | "green_up") =>
  getShareImagePng(String(id), colors ? { colors } : {}, { render });
const text = (png: Uint8Array) => new TextDecoder().decode(png);

let seq = 0;
async function record(): Promise<number> {
  seq += 1;
  const report = storedReport("zh");
  const row = await createAnalysisRecord({
    queryId: `share-repeat-${seq}`,
    traceId: null,
    stockCode: "600519",
    displayCode: "600519",
    stockName: "贵州茅台",
    market: "cn",
    assetType: "stock",
    targetKey: "stock:cn:600519",
    reportType: "detailed",
    reportLanguage: "zh",
    region: "cn",
    analysisPhase: null,
    currentPrice: 1660.5,
    changePct: 0,
    volumeRatio: null,
    turnoverRate: null,
    modelUsed: null,
    engineVersion: RULE_ENGINE_VERSION,
    dataSource: "eastmoney",
    marketPhaseSummary: null,
    summary: report.summary,
    strategy: report.strategy,
    details: report.details,
    rawResult: null,
    contextSnapshot: null,
    diagnostics: {},
    flow: {},
    news: [{ title: "贵州茅台发布一季度报告", snippet: "营收同比增长", url: "https://news.example.com/1" }],
  });
  return row.id;
}

async function completedBacktest(id: string, completedAt: string): Promise<void> {
  const side = {
    count: 60,
    hit: 30,
    miss: 20,
    neutral: 10,
    hit_rate_pct: 50,
    mean_return_pct: 1.5,
    median_return_pct: 1.2,
  };
  await db().backtestRun.create({
    data: {
      id,
      stockCode: "600519",
      market: "cn",
      targetKey: "stock:cn:600519",
      target: "{}",
      status: "completed",
      engineVersion: RULE_ENGINE_VERSION,
      startDate: "2024-01-02",
      endDate: "2026-11-20",
      horizons: "[10]",
      step: 1,
      neutralBandPct: 2,
      summary: JSON.stringify({
        horizons: [
          { horizon: 10, all: { count: 400, mean_return_pct: 0.4 }, by_action: [], long_side: side, short_side: side },
        ],
        equity: null,
      }),
      createdAt: new Date(completedAt),
      completedAt: new Date(completedAt),
    },
  });
}

afterEach(() => {
  setPreferredNameSource(null);
  database.useSettings({});
  clearSharePngCache();
});

/** What a share request could change: the records, their news, the history version and the renders. */
async function stored(): Promise<{ records: number; news: number; version: number; renders: number }> {
  const row = await readOneRow<Record<string, unknown>>(
    "SELECT (SELECT COUNT(*) FROM analysis_history) AS records, (SELECT COUNT(*) FROM analysis_news) AS news, (SELECT version FROM history_version WHERE id = 1) AS version",
  );
  return { records: Number(row?.records), news: Number(row?.news), version: Number(row?.version), renders };
}

describe("repeat share images", () => {
  it("the start-up warm-up of the share path only reads: nothing stored or remembered changes, the next share is drawn", async () => {
    const id = await record();
    const before = await stored();
    await warmShareReads();
    await warmShareReads();
    expect(await stored()).toEqual(before);
    const first = await share(id);
    expect(first.reused).toBe(false);
    expect(renders).toBe(before.renders + 1);
    expect((await share(id)).reused).toBe(true);
  });

  it("a repeat is served from memory with the same bytes and name; each colour choice is its own image", async () => {
    const id = await record();
    renders = 0;
    const first = await share(id);
    const again = await share(id);
    expect(first.reused).toBe(false);
    expect(again).toMatchObject({ reused: true, filename: first.filename });
    expect(text(again.png)).toBe(text(first.png));
    const green = await share(id, "green_up");
    expect(green.reused).toBe(false);
    expect(text(green.png)).not.toBe(text(first.png));
    expect((await share(id, "green_up")).reused).toBe(true);
    expect(renders).toBe(2);
  });

  it("a backtest of the stock leaves the card as it was: a report carries its own evidence, stored with it", async () => {
    const id = await record();
    const before = await share(id);
    await completedBacktest(`memo-bt-${id}`, "2026-11-21T00:00:00Z");
    const after = await share(id);
    expect(after.reused).toBe(true);
    expect(text(after.png)).toBe(text(before.png));
  });

  it("a change to the record or to any other record's table rebuilds; a deleted record is 404, not its old image", async () => {
    const id = await record();
    const before = await share(id);
    await db().analysisHistory.update({ where: { id }, data: { currentPrice: 1700.25 } });
    const changed = await share(id);
    expect(changed.reused).toBe(false);
    await record();
    expect((await share(id)).reused).toBe(false);
    expect((await share(id)).reused).toBe(true);
    expect(text(before.png)).toBeTruthy();
    await db().analysisNews.deleteMany({ where: { historyId: id } });
    await db().analysisHistory.delete({ where: { id } });
    await expect(share(id)).rejects.toMatchObject({ status: 404 });
  });

  it("changed settings are read again: a lower size limit refuses the remembered record (413)", async () => {
    const id = await record();
    await share(id);
    expect((await share(id)).reused).toBe(true);
    database.useSettings({ SHARE_IMAGE_MAX_CHARS: "100" });
    await expect(share(id)).rejects.toMatchObject({ status: 413, code: "share_image_too_large" });
    database.useSettings({ SHARE_IMAGE_PNG_ENABLED: "false" });
    await expect(share(id)).rejects.toMatchObject({ status: 503, code: "share_image_unavailable" });
  });

  it("a changed stock-name list rebuilds the card", async () => {
    const id = await record();
    await share(id);
    expect((await share(id)).reused).toBe(true);
    setPreferredNameSource(
      createNameIndex([{ kind: "stock", market: "cn", code: "600519", nameZh: "茅台新名", nameEn: "Renamed Moutai" }]),
    );
    expect((await share(id)).reused).toBe(false);
    expect((await share(id)).reused).toBe(true);
  });

  it("an image evicted from the PNG cache is drawn again, not lost", async () => {
    const id = await record();
    const first = await share(id);
    clearSharePngCache();
    renders = 0;
    const again = await share(id);
    expect(again.reused).toBe(false);
    expect(renders).toBe(1);
    expect(text(again.png)).toBe(text(first.png));
  });
});
