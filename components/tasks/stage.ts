import { fmt } from "@/components/settings/format";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { formatInstant } from "@/lib/i18n/time";
import type { TTaskInfo } from "@/lib/tasks/schemas";
import { MARKET_REVIEW_TASK_CODE } from "./constants";

type Texts = Dictionary["tasksUi"];
type StageKey = keyof Texts["stages"];

// The queue and the pipelines report their stage in fixed English words (lib/tasks/store.ts,
// lib/analysis/pipeline.ts, lib/market-review/run.ts); the panel shows them in the UI language, and any
// other text as sent.
const STAGES: ReadonlyArray<[RegExp, StageKey]> = [
  [/^queued$/i, "queued"],
  [/^started$/i, "started"],
  [/^re-queued/i, "requeued"],
  [/^fetching daily bars/i, "bars"],
  [/^fetching the quote/i, "quote"],
  [/^searching news/i, "news"],
  [/^computing indicators/i, "indicators"],
  [/^asking the model/i, "llm"],
  [/^reading the engine's record/i, "evidence"],
  [/^storing the report/i, "storingReport"],
  [/^starting the market review/i, "reviewStart"],
  [/^fetching the (cn|hk|us) market overview/i, "overview"],
  [/^searching market news/i, "marketNews"],
  [/^writing the rule-based review/i, "reviewRules"],
  [/^storing the review/i, "storingReview"],
  [/^analysis completed$/i, "analysisCompleted"],
  [/^market review completed$/i, "reviewCompleted"],
  [/^completed \(the report was stored before a restart\)/i, "storedBeforeRestart"],
  [/^backtest queued$/i, "backtestQueued"],
  [/^reading daily bars/i, "backtestBars"],
  [/^replaying the rules/i, "backtestReplay"],
  [/^storing the calls/i, "backtestStoring"],
  [/^backtest completed/i, "backtestCompleted"],
  [/^done$/i, "done"],
  [/^failed$/i, "failed"],
];

export function stageText(t: Texts, message: string | null | undefined): string {
  if (!message) return "";
  for (const [pattern, key] of STAGES) {
    const match = pattern.exec(message.trim());
    if (!match) continue;
    const region = match[1]?.toLowerCase() as keyof Texts["regions"] | undefined;
    return fmt(t.stages[key], {
      region: region && Object.hasOwn(t.regions, region) ? t.regions[region] : (region ?? ""),
    });
  }
  return message;
}

export function isMarketReview(task: Pick<TTaskInfo, "stock_code">): boolean {
  return task.stock_code === MARKET_REVIEW_TASK_CODE;
}

/** The region label of a review task ("A股+美股" for both), or the raw region. */
export function regionText(t: Texts, region: string | null | undefined): string {
  if (!region) return "";
  return Object.hasOwn(t.regions, region) ? t.regions[region as keyof Texts["regions"]] : region;
}

/** "HH:mm:ss GMT+8": a task's time in the display zone with its label, as the report beside it. */
export function clockTime(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return formatInstant(date, timeZone, { style: "clock" });
}
