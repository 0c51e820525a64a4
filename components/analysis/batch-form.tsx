"use client";

import { useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { readFailure } from "@/components/auth/api-errors";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { TBatchTaskAcceptedResponse, TTaskAccepted } from "@/lib/tasks/schemas";
import { localizedFailure, rejectionText, type RejectionLike } from "./rejection-text";

type AnalyzeTexts = Dictionary["analyzeUi"];
type TaskTexts = Dictionary["tasksUi"];

/** Spec 8 / 4.2 rule 2: at most 50 raw tokens per request. */
export const BATCH_MAX_CODES = 50;

/** Codes pasted one per line or separated by commas, semicolons, spaces (ASCII or full-width), in order. */
export function parseCodes(text: string): string[] {
  return text
    .split(/[\s,，;；、]+/u)
    .map((token) => token.trim())
    .filter(Boolean);
}

/** The answer to one async submission, whatever its shape (batch body, single 202, single 409). */
export interface BatchOutcome {
  accepted: { stock_code: string; task_id: string }[];
  duplicates: { stock_code: string; existing_task_id: string; message: string }[];
  rejected: ({ stock_code: string } & RejectionLike)[];
  message: string | null;
}

type SubmitState =
  | { status: "idle" }
  | { status: "submitting" }
  | { status: "failed"; title: string; message: string | null; code: string | null }
  | { status: "done"; outcome: BatchOutcome };

function Stat({ label, value, testId, tone }: { label: string; value: number; testId: string; tone: string }) {
  return (
    <div data-testid={testId} data-count={value} className="flex items-baseline gap-1.5">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className={cx("text-lg font-semibold tabular-nums", value > 0 ? tone : "text-muted")}>{value}</dd>
    </div>
  );
}

function Outcome({
  t,
  reasons,
  outcome,
}: {
  t: TaskTexts;
  reasons: AnalyzeTexts["rejectionReasons"];
  outcome: BatchOutcome;
}) {
  return (
    <div
      data-testid="batch-result"
      role="status"
      className="mt-2.5 rounded-md border border-line bg-subtle/60 px-3 py-2"
    >
      <div className="flex flex-wrap items-baseline gap-x-5 gap-y-1">
        <h3 className="text-sm font-semibold">{t.batchResultTitle}</h3>
        <dl className="flex flex-wrap items-baseline gap-x-5 gap-y-1">
          <Stat label={t.accepted} value={outcome.accepted.length} testId="batch-accepted" tone="text-fg" />
          <Stat
            label={t.duplicates}
            value={outcome.duplicates.length}
            testId="batch-duplicates"
            tone="text-amber-700 dark:text-amber-300"
          />
          <Stat
            label={t.rejected}
            value={outcome.rejected.length}
            testId="batch-rejected"
            tone="text-red-700 dark:text-red-300"
          />
        </dl>
      </div>
      {outcome.accepted.length > 0 ? (
        <p className="mt-1 flex flex-wrap gap-1" aria-label={t.accepted}>
          {outcome.accepted.map((item) => (
            <span
              key={item.task_id}
              className="rounded border border-line bg-surface px-1.5 font-mono text-xs leading-5"
            >
              {item.stock_code}
            </span>
          ))}
        </p>
      ) : null}
      {outcome.duplicates.length > 0 ? (
        <ul className="mt-1.5 space-y-0.5 text-xs" aria-label={t.duplicates}>
          {outcome.duplicates.map((item) => (
            <li
              key={`${item.stock_code}-${item.existing_task_id}`}
              data-testid="batch-duplicate-item"
              className="break-words"
            >
              <span className="font-mono font-semibold">{item.stock_code}</span>
              <span className="text-muted">
                {t.colon}
                {fmt(t.duplicateOf, { taskId: item.existing_task_id })}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {outcome.rejected.length > 0 ? (
        <ul className="mt-1.5 space-y-0.5 text-xs" aria-label={t.rejected}>
          {outcome.rejected.map((item, index) => (
            <li
              key={`${item.stock_code}-${index}`}
              data-testid="batch-rejected-item"
              className="break-words text-red-800 dark:text-red-200"
            >
              <span className="font-mono font-semibold">{item.stock_code}</span>
              {t.colon}
              {rejectionText(reasons, item)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

async function submitCodes(
  codes: string[],
  reportType: string,
  reportLanguage: string,
  signal: AbortSignal,
): Promise<Response> {
  return fetch("/api/v1/analysis/analyze", {
    method: "POST",
    headers: { "content-type": "application/json" },
    credentials: "same-origin",
    signal,
    body: JSON.stringify({
      stock_codes: codes,
      report_type: reportType,
      report_language: reportLanguage,
      async_mode: true,
      selection_source: "manual",
    }),
  });
}

/** Reads a 202 answer: a batch body, or (one code, nothing rejected) a single TaskAccepted. */
async function readAccepted(res: Response, codes: string[]): Promise<BatchOutcome> {
  const body = (await res.json()) as Partial<TBatchTaskAcceptedResponse> & Partial<TTaskAccepted>;
  if (Array.isArray(body.accepted)) {
    return {
      accepted: body.accepted.map((item) => ({ stock_code: item.stock_code, task_id: item.task_id })),
      duplicates: body.duplicates ?? [],
      rejected: body.rejected ?? [],
      message: body.message ?? null,
    };
  }
  return {
    accepted: body.task_id ? [{ stock_code: codes[0] ?? "", task_id: body.task_id }] : [],
    duplicates: [],
    rejected: [],
    message: body.message ?? null,
  };
}

/**
 * Many codes at once, queued as background tasks (POST /api/v1/analysis/analyze with
 * async_mode). Shows what the API accepted, found already running and rejected; the live task panel shows
 * the progress.
 */
export function BatchAnalyzeForm({
  t,
  tt,
  reportType,
  reportLanguage,
  text,
  onTextChange,
  options,
  onSubmitted,
}: {
  t: AnalyzeTexts;
  tt: TaskTexts;
  reportType: string;
  reportLanguage: string;
  /** The pasted codes (kept by the parent, so switching tabs does not lose them). */
  text: string;
  onTextChange: (text: string) => void;
  /** The report type and language pickers, shared with the single-code form. */
  options: ReactNode;
  onSubmitted?: (outcome: BatchOutcome) => void;
}) {
  const [state, setState] = useState<SubmitState>({ status: "idle" });
  const inFlight = useRef<AbortController | null>(null);
  const textareaId = useId();
  const hintId = useId();
  const codes = parseCodes(text);
  const submitting = state.status === "submitting";

  async function submit(event?: FormEvent<HTMLFormElement>) {
    event?.preventDefault();
    if (submitting) return;
    if (codes.length === 0) {
      setState({ status: "failed", title: t.errorValidation, message: tt.batchEmpty, code: null });
      return;
    }
    if (codes.length > BATCH_MAX_CODES) {
      setState({
        status: "failed",
        title: t.errorValidation,
        message: fmt(tt.batchTooMany, { max: BATCH_MAX_CODES, count: codes.length }),
        code: null,
      });
      return;
    }
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setState({ status: "submitting" });
    let res: Response;
    try {
      res = await submitCodes(codes, reportType, reportLanguage, controller.signal);
    } catch (error) {
      if ((error as Error).name === "AbortError") return;
      setState({ status: "failed", title: t.errorTitle, message: t.errorNetwork, code: null });
      return;
    }
    let outcome: BatchOutcome;
    if (res.status === 409) {
      // A single code already queued or running: DuplicateTaskError, sent flat (spec 4.2 rule 8).
      const failure = await readFailure(res);
      const existing = typeof failure.body.existing_task_id === "string" ? failure.body.existing_task_id : "";
      const code = typeof failure.body.stock_code === "string" ? failure.body.stock_code : (codes[0] ?? "");
      if (failure.code !== "duplicate_task") {
        setState({
          status: "failed",
          title: fmt(t.errorStatus, { status: 409 }),
          message: failure.message,
          code: failure.code,
        });
        return;
      }
      outcome = {
        accepted: [],
        duplicates: [{ stock_code: code, existing_task_id: existing, message: failure.message }],
        rejected: [],
        message: null,
      };
    } else if (!res.ok) {
      const failure = await readFailure(res);
      const title =
        res.status === 400 || res.status === 422
          ? t.errorValidation
          : res.status >= 500
            ? t.errorFailed
            : fmt(t.errorStatus, { status: res.status });
      setState({ status: "failed", title, message: localizedFailure(t, failure), code: failure.code });
      return;
    } else {
      outcome = await readAccepted(res, codes);
    }
    setState({ status: "done", outcome });
    onSubmitted?.(outcome);
  }

  return (
    <div>
      <form
        onSubmit={submit}
        aria-label={tt.batchFormLabel}
        aria-busy={submitting}
        className="flex flex-wrap items-end gap-x-3 gap-y-2.5"
      >
        <div className="w-full min-w-0">
          <div className="mb-1 flex items-baseline justify-between gap-3">
            <label htmlFor={textareaId} className="text-xs font-medium text-muted">
              {tt.batchLabel}
            </label>
            <span data-testid="batch-count" className="text-xs text-muted tabular-nums">
              {fmt(tt.batchCount, { count: codes.length })}
            </span>
          </div>
          <textarea
            id={textareaId}
            aria-describedby={hintId}
            value={text}
            onChange={(e) => onTextChange(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                void submit();
              }
            }}
            rows={4}
            spellCheck={false}
            autoCapitalize="characters"
            placeholder={tt.batchPlaceholder}
            className="block w-full resize-y rounded-md border border-line bg-surface px-2.5 py-1.5 font-mono text-sm leading-6 placeholder:text-muted/70 focus-visible:outline-2 focus-visible:outline-accent"
          />
          <p id={hintId} className="mt-1 text-xs text-muted">
            {fmt(tt.batchHint, { max: BATCH_MAX_CODES })}
          </p>
        </div>
        {options}
        <button
          type="submit"
          disabled={submitting}
          className={cx(
            "inline-flex h-9 items-center gap-2 rounded-md bg-accent px-4 text-sm font-semibold text-accent-fg",
            "hover:opacity-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent",
            "disabled:cursor-progress disabled:opacity-70",
          )}
        >
          {submitting ? (
            <span
              aria-hidden="true"
              className="size-3.5 animate-spin rounded-full border-2 border-accent-fg/40 border-t-accent-fg"
            />
          ) : null}
          {submitting ? tt.batchSubmitting : tt.batchSubmit}
        </button>
      </form>
      {state.status === "failed" ? (
        <div
          role="alert"
          data-testid="batch-error"
          className="mt-2.5 rounded-md border border-red-500/40 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-400/30 dark:bg-red-950/50 dark:text-red-200"
        >
          <p className="font-semibold">{state.title}</p>
          {state.message ? <p className="mt-0.5 break-words">{state.message}</p> : null}
          {state.code ? <p className="mt-0.5 font-mono text-xs opacity-70">{state.code}</p> : null}
        </div>
      ) : null}
      {state.status === "done" ? <Outcome t={tt} reasons={t.rejectionReasons} outcome={state.outcome} /> : null}
    </div>
  );
}
