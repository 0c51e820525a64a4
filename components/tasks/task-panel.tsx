"use client";

import Link from "next/link";
import { rejectionText } from "@/components/analysis/rejection-text";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import { useDisplayTimeZone } from "@/components/shell/time-zone";
import { Panel } from "@/components/ui/panel";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { formatInstant } from "@/lib/i18n/time";
import type { TTaskInfo } from "@/lib/tasks/schemas";
import { MONO_WITH_CJK } from "./mono";
import { clockTime, isMarketReview, regionText, stageText } from "./stage";
import { isFinished, type StreamConnection, type TaskStream } from "./use-task-stream";

type Texts = Dictionary["tasksUi"];
type Reasons = Dictionary["analyzeUi"]["rejectionReasons"];

const STATUS_TONES: Record<TTaskInfo["status"], string> = {
  pending: "border-line bg-subtle text-muted",
  processing: "border-accent/30 bg-accent-soft text-accent",
  completed:
    "border-emerald-600/30 bg-emerald-50 text-emerald-800 dark:border-emerald-400/30 dark:bg-emerald-950/50 dark:text-emerald-300",
  failed: "border-red-500/40 bg-red-50 text-red-800 dark:border-red-400/30 dark:bg-red-950/50 dark:text-red-200",
  cancel_requested:
    "border-amber-500/40 bg-amber-50 text-amber-800 dark:border-amber-400/30 dark:bg-amber-950/50 dark:text-amber-300",
  cancelled: "border-line bg-subtle text-muted",
};

const BAR_TONES: Record<TTaskInfo["status"], string> = {
  pending: "bg-muted/40",
  processing: "bg-accent",
  completed: "bg-emerald-500 dark:bg-emerald-400",
  failed: "bg-red-500 dark:bg-red-400",
  cancel_requested: "bg-amber-500",
  cancelled: "bg-muted/40",
};

const DOT_TONES: Record<StreamConnection, string> = {
  connecting: "bg-muted animate-pulse",
  open: "bg-emerald-500",
  reconnecting: "bg-amber-500 animate-pulse",
};

/** The stream's state as a dot and a word; announced politely when it changes. */
export function ConnectionIndicator({ t, connection }: { t: Texts; connection: StreamConnection }) {
  return (
    <span
      role="status"
      data-testid="task-connection"
      data-state={connection}
      className="inline-flex items-center gap-1.5 text-xs text-muted"
    >
      <span aria-hidden="true" className={cx("size-2 rounded-full", DOT_TONES[connection])} />
      {t.connection[connection]}
    </span>
  );
}

export function TaskStatusBadge({ t, status }: { t: Texts; status: TTaskInfo["status"] }) {
  return (
    <span
      data-testid="task-status"
      className={cx(
        "inline-flex items-center rounded border px-1.5 py-0.5 text-xs leading-4 font-medium whitespace-nowrap",
        STATUS_TONES[status],
      )}
    >
      {t.status[status]}
    </span>
  );
}

export function TaskProgress({ t, task, label }: { t: Texts; task: TTaskInfo; label: string }) {
  const progress = task.status === "completed" ? 100 : Math.max(0, Math.min(100, task.progress));
  return (
    <div
      role="progressbar"
      aria-label={fmt(t.progressAria, { name: label })}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={progress}
      className="h-1.5 w-full overflow-hidden rounded-full bg-subtle"
    >
      <div
        className={cx("h-full rounded-full transition-[width] duration-300", BAR_TONES[task.status])}
        style={{ width: `${progress}%` }}
      />
    </div>
  );
}

/**
 * The code and name shown for a task (a market review shows its region instead of a code). The name is the one of the
 * UI language from the task's table names; the stored name (the report language's) when the tables have none.
 */
export function taskLabel(t: Texts, task: TTaskInfo, locale?: string): { code: string; name: string } {
  if (isMarketReview(task)) return { code: regionText(t, task.region) || task.stock_code, name: t.marketReview };
  const named = task.stock_names?.[locale === "en" ? "en" : "zh"];
  return { code: task.stock_code, name: named ?? task.stock_name ?? "" };
}

function TaskRow({ t, task, locale, reasons }: { t: Texts; task: TTaskInfo; locale?: string; reasons?: Reasons }) {
  const { code, name } = taskLabel(t, task, locale);
  const stage = stageText(t, task.message);
  const progress = task.status === "completed" ? 100 : task.progress;
  const { zone } = useDisplayTimeZone();
  const at = task.completed_at ?? task.started_at ?? task.created_at;
  const time = clockTime(at, zone);
  const fullTime = at ? formatInstant(at, zone) : undefined;
  return (
    <li
      data-testid="task-row"
      data-task-id={task.task_id}
      data-status={task.status}
      data-code={task.stock_code}
      className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-1.5"
    >
      <div className="flex min-w-0 basis-full items-center gap-2 sm:basis-60 sm:shrink-0">
        <span style={MONO_WITH_CJK} className="shrink-0 text-sm font-semibold tabular-nums">
          {code}
        </span>
        {name ? <span className="min-w-0 truncate text-sm">{name}</span> : null}
        <TaskStatusBadge t={t} status={task.status} />
        <time
          dateTime={at ?? undefined}
          title={fullTime}
          data-testid="task-time"
          className="ml-auto shrink-0 text-xs whitespace-nowrap text-muted tabular-nums sm:hidden"
        >
          {time}
        </time>
      </div>
      <div className="flex min-w-0 flex-1 basis-32 items-center gap-2">
        <div className="min-w-0 flex-1">
          <TaskProgress t={t} task={task} label={name ? `${code} ${name}` : code} />
        </div>
        <span className="w-9 shrink-0 text-right text-xs text-muted tabular-nums">{progress}%</span>
      </div>
      <div className="flex min-w-0 basis-full items-baseline gap-x-3 text-xs sm:basis-60 sm:shrink-0">
        {stage && task.status !== "failed" ? (
          <span data-testid="task-stage" className="min-w-0 truncate text-muted" title={task.message ?? undefined}>
            {stage}
          </span>
        ) : null}
        {/* A bot message is answered in its chat: there is no page to open. */}
        {task.status === "completed" && task.task_kind !== "bot" ? (
          <Link
            href={
              task.task_kind === "backtest"
                ? `/backtest?id=${encodeURIComponent(task.task_id)}`
                : task.task_kind === "screening"
                  ? `/screening?run=${encodeURIComponent(task.task_id)}`
                  : `/history/${encodeURIComponent(task.task_id)}`
            }
            className="ml-auto shrink-0 font-medium text-accent underline-offset-2 hover:underline"
            data-testid="task-report-link"
          >
            {task.task_kind === "backtest"
              ? t.viewBacktest
              : task.task_kind === "screening"
                ? t.viewScreening
                : t.viewReport}
          </Link>
        ) : null}
        {task.status === "failed" ? (
          <span data-testid="task-error" className="min-w-0 break-words text-red-700 dark:text-red-300">
            <span className="font-medium">{t.errorLabel}</span>
            {t.colon}
            {task.error && task.error_code && reasons
              ? rejectionText(reasons, {
                  message: task.error,
                  reason_code: task.error_code,
                  reason_params: task.error_params ?? null,
                })
              : task.error || stage || t.status.failed}
          </span>
        ) : null}
      </div>
      <time
        dateTime={at ?? undefined}
        title={fullTime}
        data-testid="task-time"
        className="hidden min-w-16 shrink-0 text-right text-xs whitespace-nowrap text-muted tabular-nums sm:block"
      >
        {time}
      </time>
    </li>
  );
}

/**
 * The live task panel: every task the stream knows (newest first), its progress bar and stage, a link to the
 * report when completed, the error when failed, and the connection state.
 */
export function TaskPanel({
  t,
  stream,
  tasks = stream.tasks,
  title = t.panelTitle,
  empty = t.panelEmpty,
  maxRows = 50,
  locale,
  reasons,
}: {
  t: Texts;
  stream: TaskStream;
  tasks?: TTaskInfo[];
  title?: string;
  empty?: string;
  maxRows?: number;
  /** The UI locale, which picks the stock names. */
  locale?: string;
  /** Failure reasons in the UI language, by the task's error_code; without them the API's English text shows. */
  reasons?: Reasons;
}) {
  const active = tasks.filter((task) => !isFinished(task)).length;
  const shown = tasks.slice(0, maxRows);
  return (
    <Panel>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-line px-3 py-2">
        <h2 className="text-sm font-semibold">{title}</h2>
        <span data-testid="task-counts" className="text-xs text-muted tabular-nums">
          {fmt(t.counts, { active, total: tasks.length })}
        </span>
        <span className="ml-auto">
          <ConnectionIndicator t={t} connection={stream.connection} />
        </span>
      </div>
      {shown.length === 0 ? (
        <p className="px-3 py-4 text-sm text-muted">{empty}</p>
      ) : (
        <ul aria-label={title} data-testid="task-list" className="max-h-[28rem] divide-y divide-line overflow-y-auto">
          {shown.map((task) => (
            <TaskRow key={task.task_id} t={t} task={task} locale={locale} reasons={reasons} />
          ))}
        </ul>
      )}
    </Panel>
  );
}
