"use client";

import { useState } from "react";
import { postJson } from "@/components/auth/api-errors";
import { BUTTON_SECONDARY, FormMessage } from "@/components/auth/password-input";
import { useFormatTime } from "@/components/shell/time-zone";
import { Badge } from "@/components/ui/badge";
import { Panel } from "@/components/ui/panel";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { TScheduledRun, TSchedulerStatus } from "@/lib/schedule/schemas";
import { fmt } from "./format";

type ScheduleTexts = Dictionary["scheduleUi"];
type Message = { tone: "error" | "success"; text: string } | null;

const STATUS_TEXT = { completed: "statusCompleted", failed: "statusFailed", running: "statusRunning" } as const;

/** What a run queued, in the UI language, from its lists (the API's message is English). */
function runSummary(run: TScheduledRun, t: ScheduleTexts): string {
  const parts = [fmt(t.runQueued, { count: run.accepted.length })];
  if (run.duplicates.length > 0) parts.push(fmt(t.runDuplicates, { count: run.duplicates.length }));
  if (run.skipped.length > 0) parts.push(fmt(t.runSkipped, { count: run.skipped.length }));
  if (run.rejected.length > 0) parts.push(fmt(t.runRejected, { count: run.rejected.length }));
  return `${parts.join(" · ")} · ${fmt(t.runReview, { outcome: t.reviewOutcomes[run.market_review.outcome] })}`;
}

function regionLabel(t: ScheduleTexts, region: string): string {
  return region in t.regions ? t.regions[region as keyof ScheduleTexts["regions"]] : region;
}

function RunRow({ run, t }: { run: TScheduledRun; t: ScheduleTexts }) {
  const formatTime = useFormatTime();
  return (
    <li className="flex flex-col gap-0.5 border-t border-line py-1.5 text-xs" data-testid="schedule-run">
      <div className="flex items-center gap-2">
        <span className="font-mono">{formatTime(run.started_at)}</span>
        <Badge tone={run.trigger === "schedule" ? "accent" : "neutral"}>
          {run.trigger === "schedule" ? t.triggerSchedule : t.triggerManual}
        </Badge>
        <span className={run.status === "failed" ? "text-red-700 dark:text-red-300" : "text-muted"}>
          {t[STATUS_TEXT[run.status]]}
        </span>
      </div>
      <span className="text-muted">{runSummary(run, t)}</span>
      {run.error ? <span className="break-words text-red-700 dark:text-red-300">{run.error}</span> : null}
      {run.rejected.length > 0 ? (
        <span className="break-words text-muted">{run.rejected.map((r) => r.stock_code).join(", ")}</span>
      ) : null}
    </li>
  );
}

// The daily schedule at a glance (its settings are edited in the form above) and a button that runs it now.
export function SchedulePanel({ t, initial }: { t: ScheduleTexts; initial: TSchedulerStatus }) {
  const [status, setStatus] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  // The schedule is set in the service zone (status.time_zone, named in its description); its instants show in
  // the display zone with their label, as every time of the UI.
  const zone = status.time_zone;
  const formatTime = useFormatTime();

  async function runNow() {
    setBusy(true);
    setMessage(null);
    const result = await postJson("/api/v1/system/scheduler/run-now");
    if (result.ok) {
      const run = (await result.res.json()) as TScheduledRun;
      setMessage({
        tone: run.status === "failed" ? "error" : "success",
        text: fmt(t.ranNow, { message: run.error ?? runSummary(run, t) }),
      });
      const res = await fetch("/api/v1/system/scheduler/status", { cache: "no-store" });
      if (res.ok) setStatus((await res.json()) as TSchedulerStatus);
    } else {
      setMessage({ tone: "error", text: fmt(t.runFailed, { message: result.failure?.message ?? "network error" }) });
    }
    setBusy(false);
  }

  return (
    <Panel className="flex flex-col gap-2 px-4 py-3">
      <div id="daily-schedule" className="flex items-center gap-2">
        <h2 className="text-sm font-semibold">{t.title}</h2>
        <Badge tone={status.enabled ? "accent" : "neutral"}>{status.enabled ? t.on : t.off}</Badge>
      </div>
      <p className="text-xs leading-5 text-muted">
        {fmt(status.enabled ? t.body : t.offBody, { time: status.schedule_time, zone })}
      </p>
      {status.problem && <FormMessage tone="error">{fmt(t.problem, { problem: status.problem })}</FormMessage>}
      <ul className="flex flex-col gap-0.5 text-xs">
        {status.next_run_at && (
          <li data-testid="schedule-next">{fmt(t.nextRun, { at: formatTime(status.next_run_at) })}</li>
        )}
        <li>
          {status.stock_list.length > 0 ? fmt(t.watchlist, { count: status.stock_list.length }) : t.emptyWatchlist}
        </li>
        <li>
          {status.market_review_enabled
            ? fmt(t.review, { region: regionLabel(t, status.market_review_region) })
            : t.reviewOff}
        </li>
      </ul>
      <button type="button" disabled={busy} onClick={runNow} className={`${BUTTON_SECONDARY} self-start`}>
        {busy ? t.running : t.runNow}
      </button>
      {message && <FormMessage tone={message.tone}>{message.text}</FormMessage>}
      <h3 className="mt-1 text-xs font-semibold text-muted">{t.recentRuns}</h3>
      {status.recent_runs.length === 0 ? (
        <p className="text-xs text-muted">{t.noRuns}</p>
      ) : (
        <ul aria-label={t.recentRuns}>
          {status.recent_runs.map((run) => (
            <RunRow key={run.id} run={run} t={t} />
          ))}
        </ul>
      )}
    </Panel>
  );
}
