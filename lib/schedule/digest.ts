import { getSettings } from "@/lib/settings/settings";
import { db } from "@/lib/db/client";
import { normalizeReportLanguage } from "@/lib/analysis/engine/language";
import { toAnalysisReport } from "@/lib/history/report";
import { logger } from "@/lib/log/logger";
import { localParts } from "@/lib/market/market-time";
import { notify } from "@/lib/notify";
import { digestMessage, type DigestEntry } from "@/lib/notify/digest-message";
import { serviceTimeZone } from "@/lib/time/zoned-time";
import type { RunRow } from "./run-store";
import { toScheduledRun } from "./serialize";

// The merged report of a scheduled run (SINGLE_STOCK_NOTIFY off). It is due once none of the run's analysis tasks
// is pending or processing; whoever notices first (the worker finishing the last task, or the scheduler's tick
// after a restart) claims it with a conditional update, so it is sent once even with several processes. A process
// dying between the claim and the send leaves it "sending": that digest is lost rather than sent twice.

async function entriesOf(run: RunRow): Promise<DigestEntry[]> {
  const accepted = toScheduledRun(run).accepted;
  const ids = accepted.map((a) => a.task_id);
  const [records, tasks] = await Promise.all([
    db().analysisHistory.findMany({ where: { queryId: { in: ids } } }),
    db().analysisTask.findMany({ where: { id: { in: ids } }, select: { id: true, stockName: true, error: true } }),
  ]);
  const recordById = new Map(records.map((r) => [r.queryId, r]));
  const taskById = new Map(tasks.map((t) => [t.id, t]));
  return accepted.map(({ task_id, stock_code }): DigestEntry => {
    const record = recordById.get(task_id);
    if (record) {
      try {
        return {
          kind: "report",
          recordId: record.id,
          report: toAnalysisReport(record),
          sample: record.dataSource?.includes("sample") ?? false,
        };
      } catch {
        return {
          kind: "failed",
          stockCode: stock_code,
          stockName: record.stockName,
          reason: "the stored report is unreadable",
        };
      }
    }
    const task = taskById.get(task_id);
    return {
      kind: "failed",
      stockCode: stock_code,
      stockName: task?.stockName ?? null,
      reason: task?.error ?? "no report was stored",
    };
  });
}

async function sendDigest(run: RunRow): Promise<void> {
  const claimed = await db().scheduledRun.updateMany({
    where: { id: run.id, digest: "pending" },
    data: { digest: "sending" },
  });
  if (claimed.count !== 1) return;
  let status = "failed";
  try {
    const entries = await entriesOf(run);
    const firstReport = entries.find((e) => e.kind === "report");
    const language =
      firstReport?.kind === "report"
        ? firstReport.report.meta.report_language
        : normalizeReportLanguage(null, getSettings().REPORT_LANGUAGE);
    const message = digestMessage({
      date: localParts(run.startedAt, serviceTimeZone()).date,
      language: language === "en" ? "en" : "zh",
      summaryOnly: getSettings().REPORT_SUMMARY_ONLY,
      entries,
    });
    status = (await notify(message, { dedupKey: `digest:${run.id}` })).status;
  } catch (error) {
    logger.error({ err: error, run: run.slotKey }, "watchlist digest not sent");
  }
  await db().scheduledRun.update({ where: { id: run.id }, data: { digest: status } });
}

/** Sends every pending digest whose analyses have all finished (only the run of `traceId` when given). */
export async function sendDueDigests(traceId?: string): Promise<void> {
  const runs = await db().scheduledRun.findMany({
    where: { digest: "pending", ...(traceId ? { traceId } : {}) },
    orderBy: { id: "asc" },
    take: 20,
  });
  for (const run of runs) {
    if (!run.traceId) continue;
    const open = await db().analysisTask.count({
      where: { traceId: run.traceId, kind: "analysis", status: { in: ["pending", "processing"] } },
    });
    if (open === 0) await sendDigest(run);
  }
}
