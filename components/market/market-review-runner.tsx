"use client";

import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState, useTransition } from "react";
import { RadioSegments } from "@/components/analysis/radio-segments";
import { readFailure } from "@/components/auth/api-errors";
import { fmt } from "@/components/settings/format";
import { isMarketReview, regionText } from "@/components/tasks/stage";
import { TaskPanel } from "@/components/tasks/task-panel";
import { isFinished, useTaskStream } from "@/components/tasks/use-task-stream";
import { cx } from "@/components/ui/cx";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { REVIEW_REGION_LIST } from "@/components/tasks/constants";
import type { TMarketReviewAccepted, TReviewRegion } from "@/lib/tasks/schemas";
import { marketHref } from "./href";

type Texts = Dictionary["marketUi"];
type TaskTexts = Dictionary["tasksUi"];

const LANGUAGES = ["zh", "en"] as const;
type Language = (typeof LANGUAGES)[number];

type Notice =
  | { kind: "accepted"; region: TReviewRegion; taskId: string }
  | { kind: "duplicate"; taskId: string; message: string }
  | { kind: "error"; message: string; code: string | null };

/**
 * Runs a market review per region (POST /api/v1/analysis/market-review) and follows it on the
 * SSE task stream; when a review completes, the page re-renders on that region so its latest review shows.
 */
export function MarketReviewRunner({
  t,
  tt,
  locale,
  languageLabel,
  languageNames,
}: {
  t: Texts;
  tt: TaskTexts;
  locale: string;
  languageLabel: string;
  languageNames: Record<Language, string>;
}) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const stream = useTaskStream();
  const [language, setLanguage] = useState<Language>(locale === "en" ? "en" : "zh");
  const [submitting, setSubmitting] = useState<TReviewRegion | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  // Reviews seen pending or processing on this page: when one of them completes, the page re-renders.
  const watched = useRef(new Set<string>());
  const shown = useRef(new Set<string>());

  const reviews = useMemo(() => stream.tasks.filter(isMarketReview), [stream.tasks]);
  const running = reviews.find((task) => !isFinished(task)) ?? null;

  useEffect(() => {
    for (const task of reviews) {
      if (!isFinished(task)) watched.current.add(task.task_id);
      else if (task.status === "completed" && watched.current.has(task.task_id) && !shown.current.has(task.task_id)) {
        shown.current.add(task.task_id);
        startTransition(() => {
          router.replace(marketHref(task.region ?? "cn"), { scroll: false });
          router.refresh();
        });
      }
    }
  }, [reviews, router]);

  async function run(region: TReviewRegion) {
    setSubmitting(region);
    let res: Response;
    try {
      res = await fetch("/api/v1/analysis/market-review", {
        method: "POST",
        headers: { "content-type": "application/json" },
        credentials: "same-origin",
        body: JSON.stringify({ region, report_language: language }),
      });
    } catch {
      setNotice({ kind: "error", message: t.errorNetwork, code: null });
      setSubmitting(null);
      return;
    }
    setSubmitting(null);
    if (res.ok) {
      const accepted = (await res.json()) as TMarketReviewAccepted;
      watched.current.add(accepted.task_id);
      setNotice({ kind: "accepted", region: accepted.region, taskId: accepted.task_id });
      void stream.refresh();
      return;
    }
    const failure = await readFailure(res);
    if (failure.code === "duplicate_market_review") {
      const existing =
        typeof failure.body.existing_task_id === "string" ? failure.body.existing_task_id : (running?.task_id ?? "");
      setNotice({ kind: "duplicate", taskId: existing, message: failure.message });
      return;
    }
    setNotice({ kind: "error", message: failure.message, code: failure.code });
  }

  const region = (value: string | null | undefined) => regionText(tt, value);

  return (
    <div className="space-y-3">
      <section aria-labelledby="market-run-title" className="rounded-md border border-line bg-surface px-3 py-3">
        <h2 id="market-run-title" className="text-sm font-semibold">
          {t.runTitle}
        </h2>
        <div className="mt-2 flex flex-wrap items-end gap-x-3 gap-y-2.5">
          <div role="group" aria-label={t.runGroup} className="flex flex-wrap gap-1.5">
            {REVIEW_REGION_LIST.map((value) => (
              <button
                key={value}
                type="button"
                data-region={value}
                onClick={() => void run(value)}
                disabled={submitting !== null}
                aria-busy={submitting === value}
                className={cx(
                  "inline-flex h-9 items-center gap-1.5 rounded-md border px-3 text-sm font-semibold whitespace-nowrap",
                  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent disabled:cursor-progress",
                  running?.region === value
                    ? "border-accent bg-accent text-accent-fg"
                    : "border-line bg-surface hover:border-accent hover:text-accent",
                )}
              >
                {running?.region === value || submitting === value ? (
                  <span
                    aria-hidden="true"
                    className="size-3 animate-spin rounded-full border-2 border-current/40 border-t-current"
                  />
                ) : null}
                {fmt(t.run, { region: region(value) })}
              </button>
            ))}
          </div>
          <RadioSegments
            name="review_language"
            label={languageLabel}
            value={language}
            onChange={setLanguage}
            options={LANGUAGES.map((value) => ({ value, label: languageNames[value] }))}
          />
        </div>
        {running ? (
          <p data-testid="review-running" className="mt-2 text-xs text-muted">
            {fmt(t.running, { region: region(running.region) })}
          </p>
        ) : null}
        {notice?.kind === "accepted" ? (
          <p role="status" data-testid="review-accepted" className="mt-2 text-xs text-muted">
            {fmt(t.accepted, { region: region(notice.region) })} · <span className="font-mono">{notice.taskId}</span>
          </p>
        ) : null}
        {notice?.kind === "duplicate" ? (
          <div
            role="alert"
            data-testid="review-duplicate"
            className="mt-2.5 rounded-md border border-amber-500/40 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-400/30 dark:bg-amber-950/50 dark:text-amber-200"
          >
            <p className="font-semibold">{t.duplicateTitle}</p>
            <p className="mt-0.5 break-words">{fmt(t.duplicateBody, { taskId: notice.taskId })}</p>
            <p className="mt-0.5 font-mono text-xs opacity-70">duplicate_market_review</p>
          </div>
        ) : null}
        {notice?.kind === "error" ? (
          <div
            role="alert"
            data-testid="review-error"
            className="mt-2.5 rounded-md border border-red-500/40 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-400/30 dark:bg-red-950/50 dark:text-red-200"
          >
            <p className="font-semibold">{t.errorTitle}</p>
            <p className="mt-0.5 break-words">{notice.message}</p>
            {notice.code ? <p className="mt-0.5 font-mono text-xs opacity-70">{notice.code}</p> : null}
          </div>
        ) : null}
      </section>
      <TaskPanel t={tt} stream={stream} tasks={reviews} title={t.tasksTitle} empty={t.tasksEmpty} maxRows={5} />
    </div>
  );
}
