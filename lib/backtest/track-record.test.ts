import { describe, expect, it } from "vitest";
import { RULE_ENGINE_VERSION } from "@/lib/analysis/engine";
import { db } from "@/lib/db/client";
import { withTempDatabase } from "@/tests/kits/db/temp-database";
import { buildMarkdownReport } from "@/lib/history/markdown";
import { buildShareCard } from "@/lib/history/share/card";
import { storedReport } from "@/tests/kits/stored-reports";
import type { TBacktestSummary } from "./schemas";
import { latestTrackRecord, trackRecordText } from "./track-record";

// The report's one-line track record comes from the newest completed run of the current
// rule set on the same stock, and reaches the Markdown and the share card.

withTempDatabase("track-record");

const side = (count: number, hitRate: number | null, mean: number | null) => ({
  count,
  hit: 0,
  miss: 0,
  neutral: 0,
  hit_rate_pct: hitRate,
  mean_return_pct: mean,
  median_return_pct: mean,
});

function summary(horizons: number[]): TBacktestSummary {
  return {
    horizons: horizons.map((h) => ({
      horizon: h,
      all: { count: 400, mean_return_pct: 0.1 * h },
      by_action: [],
      long_side: side(50 + h, 40 + h, 0.2 * h),
      short_side: side(10, 50, -0.1),
    })),
    equity: null,
  };
}

let seq = 0;
async function run(fields: {
  targetKey?: string;
  engineVersion?: string;
  status?: string;
  horizons?: number[];
  completedAt?: string;
}) {
  seq += 1;
  const horizons = fields.horizons ?? [1, 5, 10];
  await db().backtestRun.create({
    data: {
      id: `run${seq}`,
      stockCode: "600519",
      market: "cn",
      targetKey: fields.targetKey ?? "stock:cn:600519",
      target: "{}",
      status: fields.status ?? "completed",
      engineVersion: fields.engineVersion ?? RULE_ENGINE_VERSION,
      startDate: "2024-01-02",
      endDate: "2026-11-20",
      horizons: JSON.stringify(horizons),
      step: 1,
      neutralBandPct: 2,
      summary: JSON.stringify(summary(horizons)),
      createdAt: new Date(fields.completedAt ?? "2026-11-20T00:00:00Z"),
      completedAt: new Date(fields.completedAt ?? "2026-11-20T00:00:00Z"),
    },
  });
  return `run${seq}`;
}

describe("latestTrackRecord", () => {
  it("none without a completed run of the current rule set on that stock", async () => {
    await run({ engineVersion: "rules-v0", completedAt: "2026-11-22T00:00:00Z" });
    await run({ status: "failed", completedAt: "2026-11-23T00:00:00Z" });
    await run({ targetKey: "stock:cn:000001", completedAt: "2026-11-23T00:00:00Z" });
    expect(await latestTrackRecord("stock:cn:600519")).toBeNull();
  });

  it("the newest completed current-version run, at 10 days, or the longest horizon under it", async () => {
    const older = await run({ completedAt: "2026-11-21T00:00:00Z" });
    expect(await latestTrackRecord("stock:cn:600519")).toMatchObject({
      backtestId: older,
      horizon: 10,
      longCount: 60,
      longHitRatePct: 50,
      longMeanReturnPct: 2,
      allMeanReturnPct: 1,
    });
    const newer = await run({ horizons: [1, 5, 20], completedAt: "2026-11-24T00:00:00Z" });
    expect(await latestTrackRecord("stock:cn:600519")).toMatchObject({ backtestId: newer, horizon: 5, longCount: 55 });
  });

  it("reaches the Markdown (after the sample notice) and the share card as a notice, in the report's language", async () => {
    const record = (await latestTrackRecord("stock:cn:600519"))!;
    for (const lang of ["zh", "en"] as const) {
      const text = trackRecordText(record, lang);
      expect(text).toContain(lang === "zh" ? "做多信号 55 次" : "55 long-side calls");
      expect(text).toContain("2024-01-02 → 2026-11-20");
      const report = storedReport(lang);
      const markdown = buildMarkdownReport({ report, news: [], dataSource: "eastmoney", trackRecord: text });
      expect(markdown).toContain(`> ${text}`);
      expect(buildShareCard({ report, markdown }).notices).toContain(text);
      expect(buildMarkdownReport({ report, news: [], dataSource: "eastmoney" })).not.toContain(text);
    }
  });
});
