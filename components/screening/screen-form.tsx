"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { fmt } from "@/components/settings/format";
import { messageOf, requestJson } from "@/components/ui/request";
import { BUTTON, FIELD, LABEL, marketText, runHref, type ScreeningTexts } from "./format";

const MARKETS = ["cn", "hk", "us"] as const;
const MAX_RESULTS = [10, 20, 50, 100] as const;

// The run form: strategy, market and how many candidates. The run is queued as a task (a market list of a few
// hundred stocks takes a while on a cold bar cache), its progress followed until it is stored, and it then opens as
// the page's run (?run=…), rendered on the server.

const POLL_MS = 400;

interface TaskState {
  status: "pending" | "processing" | "completed" | "failed";
  progress: number;
  error: string | null;
}
export function ScreenForm({
  t,
  strategies,
  initial,
  language,
  disabled,
  canRank,
}: {
  t: ScreeningTexts;
  strategies: { id: string; name: string }[];
  initial: { strategy: string; market: string };
  language: "zh" | "en";
  disabled: boolean;
  /** An LLM channel is configured: the model may re-rank the candidates. */
  canRank: boolean;
}) {
  const router = useRouter();
  const [strategy, setStrategy] = useState(initial.strategy);
  const [market, setMarket] = useState(initial.market);
  const [max, setMax] = useState<number>(20);
  const [rank, setRank] = useState(false);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function run(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setProgress(0);
    try {
      const { task_id: id } = await requestJson<{ task_id: string }>("POST", "/api/v1/screening/screen/tasks", {
        strategy,
        market,
        max_results: max,
        language,
        llm_rank: canRank && rank,
      });
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        const task = await requestJson<TaskState>("GET", `/api/v1/screening/screen/tasks/${encodeURIComponent(id)}`);
        setProgress(task.status === "completed" ? 100 : task.progress);
        if (task.status === "failed") throw new Error(task.error ?? "failed");
        if (task.status === "completed") break;
      }
      router.push(runHref(id));
    } catch (failure) {
      setError(fmt(t.runFailed, { message: messageOf(failure) }));
      setBusy(false);
      setProgress(null);
    }
  }

  return (
    <form
      onSubmit={run}
      aria-label={t.formTitle}
      data-testid="screen-form"
      className="grid grid-cols-2 items-end gap-2 sm:grid-cols-[minmax(12rem,1fr)_9rem_7rem_auto]"
    >
      <label className={`${LABEL} col-span-2 sm:col-span-1`}>
        {t.strategyLabel}
        <select className={FIELD} value={strategy} onChange={(e) => setStrategy(e.target.value)} name="strategy">
          {strategies.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <label className={LABEL}>
        {t.marketLabel}
        <select className={FIELD} value={market} onChange={(e) => setMarket(e.target.value)} name="market">
          {MARKETS.map((m) => (
            <option key={m} value={m}>
              {marketText(t, m)}
            </option>
          ))}
        </select>
      </label>
      <label className={LABEL}>
        {t.maxLabel}
        <select className={FIELD} value={max} onChange={(e) => setMax(Number(e.target.value))} name="max_results">
          {MAX_RESULTS.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <button
        type="submit"
        className={`${BUTTON} col-span-2 sm:col-span-1`}
        disabled={busy || disabled}
        aria-busy={busy}
      >
        {busy ? t.running : t.run}
      </button>
      {canRank ? (
        <label className="col-span-full flex items-center gap-2 text-sm" title={t.rerankHint}>
          <input type="checkbox" name="llm_rank" checked={rank} onChange={(e) => setRank(e.target.checked)} />
          {t.rerank}
          <span className="text-xs text-muted">{t.rerankHint}</span>
        </label>
      ) : null}
      {progress !== null ? (
        <div
          role="progressbar"
          aria-label={t.progressLabel}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress}
          data-testid="screening-progress"
          className="col-span-full h-1.5 w-full overflow-hidden rounded-full bg-subtle"
        >
          <div
            className="h-full rounded-full bg-accent transition-[width] duration-300"
            style={{ width: `${progress}%` }}
          />
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="col-span-full text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </form>
  );
}
