"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition, type FormEvent } from "react";
import { StockSearchInput, type StockSuggestion } from "@/components/analysis/stock-search-input";
import { readFailure } from "@/components/auth/api-errors";
import { fmt } from "@/components/settings/format";
import { isFinished, useTaskStream } from "@/components/tasks/use-task-stream";
import { Panel } from "@/components/ui/panel";
import type { TBacktestAccepted } from "@/lib/backtest/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

type Texts = Dictionary["backtestUi"];
type AnalyzeTexts = Dictionary["analyzeUi"];

const INPUT = "h-9 w-full rounded-md border border-line bg-surface px-2.5 text-sm text-fg tabular-nums";
const LABEL = "mb-1 block text-xs font-medium text-muted";

function parseHorizons(text: string): number[] | null {
  const parts = text.split(/[,，\s]+/).filter((s) => s !== "");
  const values = parts.map(Number);
  return values.length > 0 && values.every((v) => Number.isInteger(v) && v >= 1 && v <= 60) ? values : null;
}

/**
 * Queue a backtest (POST /api/v1/backtests) and follow it on the task stream; when it
 * completes the page re-renders on that run.
 */
export function BacktestForm({ t, ta, locale }: { t: Texts; ta: AnalyzeTexts; locale: string }) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const stream = useTaskStream();
  const [text, setText] = useState("");
  const [picked, setPicked] = useState<StockSuggestion | null>(null);
  const [start, setStart] = useState("");
  const [end, setEnd] = useState("");
  const [horizons, setHorizons] = useState("1,3,5,10");
  const [step, setStep] = useState("1");
  const [band, setBand] = useState("2");
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [runId, setRunId] = useState<string | null>(null);

  const task = runId ? (stream.tasks.find((x) => x.task_id === runId) ?? null) : null;
  const running = runId !== null && (task === null || !isFinished(task));
  const failure = task?.status === "failed" ? `${t.failed}: ${task.error ?? ""}` : null;
  // The run whose page has been opened: a finished run navigates once.
  const opened = useRef<string | null>(null);

  useEffect(() => {
    if (!task || !isFinished(task) || opened.current === task.task_id) return;
    opened.current = task.task_id;
    const id = task.task_id;
    startTransition(() => {
      router.push(`/backtest?id=${encodeURIComponent(id)}`, { scroll: false });
      router.refresh();
    });
  }, [task, router]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const code = picked?.display_code ?? text.trim();
    const list = parseHorizons(horizons);
    if (!code || !list) {
      setError(!code ? ta.codePlaceholder : t.horizonsHint);
      return;
    }
    setSubmitting(true);
    try {
      const res = await fetch("/api/v1/backtests", {
        method: "POST",
        headers: { "content-type": "application/json" },
        credentials: "same-origin",
        body: JSON.stringify({
          stock_code: code,
          horizons: list,
          step: Number(step),
          neutral_band_pct: Number(band),
          ...(start ? { start_date: start } : {}),
          ...(end ? { end_date: end } : {}),
        }),
      });
      if (!res.ok) {
        const failure = await readFailure(res);
        setError(failure.message);
        return;
      }
      const accepted = (await res.json()) as TBacktestAccepted;
      setRunId(accepted.backtest_id);
      void stream.refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSubmitting(false);
    }
  }

  const progress = task?.progress ?? 0;
  return (
    <Panel className="p-4">
      <h2 className="text-base font-semibold">{t.formTitle}</h2>
      <form
        onSubmit={submit}
        className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7"
        aria-label={t.formTitle}
      >
        <div className="col-span-2 sm:col-span-4 lg:col-span-2">
          <StockSearchInput
            t={ta}
            locale={locale}
            text={text}
            onTextChange={(value) => {
              setText(value);
              setPicked(null);
            }}
            onPick={setPicked}
          />
        </div>
        <label className="block">
          <span className={LABEL}>{t.startDate}</span>
          <input
            type="date"
            value={start}
            onChange={(e) => setStart(e.target.value)}
            className={INPUT}
            name="start_date"
          />
        </label>
        <label className="block">
          <span className={LABEL}>{t.endDate}</span>
          <input type="date" value={end} onChange={(e) => setEnd(e.target.value)} className={INPUT} name="end_date" />
        </label>
        <label className="block">
          <span className={LABEL}>{t.horizons}</span>
          <input
            value={horizons}
            onChange={(e) => setHorizons(e.target.value)}
            className={INPUT}
            name="horizons"
            title={t.horizonsHint}
            inputMode="numeric"
          />
        </label>
        <label className="block">
          <span className={LABEL}>{t.step}</span>
          <input
            type="number"
            min={1}
            max={250}
            value={step}
            onChange={(e) => setStep(e.target.value)}
            className={INPUT}
            name="step"
          />
        </label>
        <label className="block">
          <span className={LABEL}>{t.band}</span>
          <input
            type="number"
            min={0}
            max={20}
            step={0.1}
            value={band}
            onChange={(e) => setBand(e.target.value)}
            className={INPUT}
            name="neutral_band_pct"
          />
        </label>
        <div className="col-span-2 flex flex-wrap items-center gap-3 sm:col-span-4 lg:col-span-7">
          <button
            type="submit"
            disabled={submitting || running}
            className="h-9 rounded-md bg-accent px-4 text-sm font-medium text-accent-fg disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
          >
            {submitting ? t.submitting : t.run}
          </button>
          {running ? (
            <div className="flex min-w-48 flex-1 items-center gap-2" data-testid="backtest-progress">
              <progress
                max={100}
                value={progress}
                className="h-2 flex-1"
                aria-label={fmt(t.progress, { code: task?.stock_code ?? "", progress: String(progress) })}
              />
              <span className="w-10 text-right text-xs text-muted tabular-nums">{progress}%</span>
            </div>
          ) : null}
          {error || failure ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-300" data-testid="backtest-error">
              {error ?? failure}
            </p>
          ) : null}
        </div>
      </form>
    </Panel>
  );
}
