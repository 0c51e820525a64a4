"use client";

import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState, useTransition, type FormEvent, type KeyboardEvent } from "react";
import { readFailure } from "@/components/auth/api-errors";
import { localizedFailure } from "./rejection-text";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import { TaskPanel } from "@/components/tasks/task-panel";
import { useTaskStream } from "@/components/tasks/use-task-stream";
import { Panel } from "@/components/ui/panel";
import type { TAnalysisResultResponse } from "@/lib/analysis/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { BatchAnalyzeForm } from "./batch-form";
import { RadioSegments } from "./radio-segments";
import { toReportView } from "./report-model";
import { AnalysisReportView } from "./report-view";
import { StockSearchInput, suggestionName, type StockSuggestion } from "./stock-search-input";

type Texts = Dictionary["analyzeUi"];
type TaskTexts = Dictionary["tasksUi"];

const REPORT_TYPES = ["brief", "simple", "detailed", "full"] as const;
type ReportType = (typeof REPORT_TYPES)[number];
const REPORT_LANGUAGES = ["zh", "en"] as const;
type ReportLanguage = (typeof REPORT_LANGUAGES)[number];

const MODES = ["single", "batch"] as const;
type Mode = (typeof MODES)[number];

type RunState =
  | { status: "idle" }
  | { status: "running"; startedAt: number }
  | { status: "failed"; title: string; message: string | null; code: string | null }
  | { status: "done"; result: TAnalysisResultResponse };

function Elapsed({ t, startedAt }: { t: Texts; startedAt: number }) {
  const [now, setNow] = useState(startedAt);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, []);
  return <>{fmt(t.loading, { seconds: Math.max(0, Math.floor((now - startedAt) / 1000)) })}</>;
}

/** Single (sync) or batch (async) analysis, as tabs; arrow keys move between them. */
function ModeTabs({
  tt,
  mode,
  onChange,
  panelId,
}: {
  tt: TaskTexts;
  mode: Mode;
  onChange: (mode: Mode) => void;
  panelId: string;
}) {
  const refs = useRef<Record<Mode, HTMLButtonElement | null>>({ single: null, batch: null });
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight" && event.key !== "Home" && event.key !== "End") return;
    event.preventDefault();
    const next =
      event.key === "Home"
        ? MODES[0]
        : event.key === "End"
          ? MODES[MODES.length - 1]!
          : MODES[(MODES.indexOf(mode) + 1) % MODES.length]!;
    onChange(next);
    refs.current[next]?.focus();
  };
  const labels: Record<Mode, string> = { single: tt.modeSingle, batch: tt.modeBatch };
  return (
    <div
      role="tablist"
      aria-label={tt.modeLabel}
      onKeyDown={onKeyDown}
      className="mb-3 inline-flex rounded-md border border-line bg-subtle p-0.5"
    >
      {MODES.map((value) => (
        <button
          key={value}
          ref={(el) => {
            refs.current[value] = el;
          }}
          type="button"
          role="tab"
          id={`${panelId}-tab-${value}`}
          aria-selected={mode === value}
          aria-controls={panelId}
          tabIndex={mode === value ? 0 : -1}
          onClick={() => onChange(value)}
          className={cx(
            "inline-flex h-7 items-center rounded px-2.5 text-xs font-medium whitespace-nowrap",
            "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent",
            mode === value ? "bg-surface text-fg shadow-sm dark:bg-line" : "text-muted hover:text-fg",
          )}
        >
          {labels[value]}
        </button>
      ))}
    </div>
  );
}

/**
 * The Analyze page's interactive part. Runs one sync analysis
 * (POST /api/v1/analysis/analyze) and renders the AnalysisReport it answers.
 * A batch tab queues many codes as background tasks, and the live task panel (fed by the
 * SSE task stream) shows every task's progress.
 */
export function AnalyzeWorkbench({
  t,
  tt,
  locale,
  disclaimer,
  samples = null,
}: {
  t: Texts;
  tt: TaskTexts;
  locale: string;
  disclaimer: string;
  /** On sample data only: the stocks it holds (any other code fails), offered as one-click picks. */
  samples?: readonly { code: string; name: string }[] | null;
}) {
  const router = useRouter();
  const [, startRefresh] = useTransition();
  const [mode, setMode] = useState<Mode>("single");
  const [batchText, setBatchText] = useState("");
  const stream = useTaskStream();
  const [text, setText] = useState("");
  const [picked, setPicked] = useState<StockSuggestion | null>(null);
  const [reportType, setReportType] = useState<ReportType>("detailed");
  // The report language follows the UI language until the user picks one.
  const [chosenLanguage, setChosenLanguage] = useState<ReportLanguage | null>(null);
  const reportLanguage: ReportLanguage = chosenLanguage ?? (locale === "en" ? "en" : "zh");
  const [run, setRun] = useState<RunState>({ status: "idle" });
  const [lastResult, setLastResult] = useState<TAnalysisResultResponse | null>(null);
  const inFlight = useRef<AbortController | null>(null);

  useEffect(() => () => inFlight.current?.abort(), []);

  const view = useMemo(() => (lastResult ? toReportView(lastResult) : null), [lastResult]);
  const running = run.status === "running";

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = text.trim();
    if (!typed) {
      setRun({ status: "failed", title: t.errorValidation, message: t.codeRequired, code: null });
      return;
    }
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setRun({ status: "running", startedAt: Date.now() });
    const body = picked
      ? {
          stock_code: picked.code,
          stock_name: suggestionName(picked, "zh") || undefined,
          selection_source: "autocomplete",
        }
      : { stock_code: typed, selection_source: "manual" };
    let res: Response;
    try {
      res = await fetch("/api/v1/analysis/analyze", {
        method: "POST",
        headers: { "content-type": "application/json" },
        credentials: "same-origin",
        signal: controller.signal,
        body: JSON.stringify({ ...body, report_type: reportType, report_language: reportLanguage, async_mode: false }),
      });
    } catch (error) {
      if ((error as Error).name === "AbortError") return;
      setRun({ status: "failed", title: t.errorTitle, message: t.errorNetwork, code: null });
      return;
    }
    if (controller.signal.aborted) return;
    if (!res.ok) {
      const failure = await readFailure(res);
      const title =
        res.status === 400 || res.status === 422
          ? t.errorValidation
          : res.status >= 500
            ? t.errorFailed
            : fmt(t.errorStatus, { status: res.status });
      setLastResult(null);
      setRun({ status: "failed", title, message: localizedFailure(t, failure), code: failure.code });
      return;
    }
    const result = (await res.json()) as TAnalysisResultResponse;
    setLastResult(result);
    setRun({ status: "done", result });
    // The page's server parts (the cockpit's verdicts) catch up with the report just stored; this state stays.
    startRefresh(() => router.refresh());
  }

  const options = (
    <>
      <RadioSegments
        name="report_type"
        label={t.reportType}
        value={reportType}
        onChange={setReportType}
        options={REPORT_TYPES.map((value) => ({ value, label: t.reportTypes[value] }))}
      />
      <RadioSegments
        name="report_language"
        label={t.reportLanguage}
        value={reportLanguage}
        onChange={setChosenLanguage}
        options={REPORT_LANGUAGES.map((value) => ({ value, label: t.reportLanguages[value] }))}
      />
    </>
  );
  const singleForm = (
    <>
      <form
        onSubmit={submit}
        aria-label={t.formLabel}
        aria-busy={running}
        className="flex flex-wrap items-end gap-x-3 gap-y-2.5"
      >
        <div className="flex w-full min-w-0 sm:w-auto sm:flex-1 sm:basis-72">
          <StockSearchInput
            t={t}
            locale={locale}
            text={text}
            onTextChange={(value) => {
              setText(value);
              setPicked(null);
            }}
            onPick={setPicked}
          />
        </div>
        {options}
        <button
          type="submit"
          disabled={running}
          className={cx(
            "inline-flex h-9 items-center gap-2 rounded-md bg-accent px-4 text-sm font-semibold text-accent-fg",
            "hover:opacity-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent",
            "disabled:cursor-progress disabled:opacity-70",
          )}
        >
          {running ? (
            <span
              aria-hidden="true"
              className="size-3.5 animate-spin rounded-full border-2 border-accent-fg/40 border-t-accent-fg"
            />
          ) : null}
          {running ? t.submitting : t.submit}
        </button>
      </form>
      {samples && samples.length > 0 ? (
        <details data-testid="sample-stocks" className="mt-2 text-xs text-muted">
          <summary className="cursor-pointer">{fmt(t.sampleStocks, { count: samples.length })}</summary>
          <p className="mt-1.5 flex flex-wrap gap-1.5">
            {samples.map((s) => (
              <button
                key={s.code}
                type="button"
                onClick={() => {
                  setText(s.code);
                  setPicked(null);
                }}
                className="rounded border border-line px-1.5 py-0.5 tabular-nums hover:bg-subtle"
              >
                {s.code} {s.name}
              </button>
            ))}
          </p>
        </details>
      ) : null}
      <div aria-live="polite" className="empty:hidden">
        {run.status === "running" ? (
          <p data-testid="analyze-loading" className="mt-2.5 text-xs text-muted">
            <Elapsed t={t} startedAt={run.startedAt} />
          </p>
        ) : null}
      </div>
      {run.status === "failed" ? (
        <div
          role="alert"
          data-testid="analyze-error"
          className="mt-2.5 rounded-md border border-red-500/40 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-400/30 dark:bg-red-950/50 dark:text-red-200"
        >
          <p className="font-semibold">{run.title}</p>
          {run.message ? <p className="mt-0.5 break-words">{run.message}</p> : null}
          {run.code ? <p className="mt-0.5 font-mono text-xs opacity-70">{run.code}</p> : null}
        </div>
      ) : null}
    </>
  );
  const panelId = "analyze-mode-panel";

  return (
    <div className="space-y-3">
      <Panel className="px-3 py-3">
        <ModeTabs tt={tt} mode={mode} onChange={setMode} panelId={panelId} />
        <div role="tabpanel" id={panelId} aria-labelledby={`${panelId}-tab-${mode}`}>
          {mode === "batch" ? (
            <BatchAnalyzeForm
              t={t}
              tt={tt}
              reportType={reportType}
              reportLanguage={reportLanguage}
              text={batchText}
              onTextChange={setBatchText}
              options={options}
              onSubmitted={() => void stream.refresh()}
            />
          ) : (
            singleForm
          )}
        </div>
      </Panel>

      {/* On a phone, empty panels would push the cockpit below the first screen: they show once they hold something. */}
      <div data-testid="task-panel-box" className={cx(stream.tasks.length === 0 && "max-sm:hidden")}>
        <TaskPanel t={tt} stream={stream} locale={locale} reasons={t.rejectionReasons} />
      </div>

      {view ? (
        <div className={cx("transition-opacity", running ? "opacity-50" : "")} aria-busy={running}>
          <AnalysisReportView t={t} view={view} disclaimer={disclaimer} />
        </div>
      ) : mode === "batch" ? null : (
        <div className="rounded-md border border-dashed border-line px-4 py-8 text-center text-sm text-muted max-sm:hidden">
          {t.emptyState}
        </div>
      )}
    </div>
  );
}
