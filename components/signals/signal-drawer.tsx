"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, useTransition, type ReactNode } from "react";
import { formatPrice, formatSignedPct } from "@/components/history/format";
import { fmt } from "@/components/settings/format";
import { useFormatTime } from "@/components/shell/time-zone";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { cx } from "@/components/ui/cx";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type {
  TDecisionSignalItem,
  TDecisionSignalOutcomeItem,
  TFeedbackItem,
  TSignalStatus,
} from "@/lib/signals/schemas";
import { formatConfidence, formatRange, labelOf, returnText } from "./format";
import { errorText, patchStatus, putFeedback } from "./requests";
import { ActionBadge, StatusBadge } from "./signal-table";

type Texts = Dictionary["signalsUi"];
type FeedbackValue = "useful" | "not_useful";
type StatusTarget = "closed" | "invalidated" | "archived";

/** Spec 3.2: any legal status may be set, but terminal statuses never return to active; from a terminal status only archiving is offered. */
function statusTargets(status: TSignalStatus): StatusTarget[] {
  if (status === "active") return ["closed", "invalidated", "archived"];
  if (status === "archived") return [];
  return ["archived"];
}

const BUTTON =
  "inline-flex h-7 items-center rounded-md border border-line bg-surface px-2.5 text-xs font-medium hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:cursor-progress disabled:opacity-60";

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="border-t border-line px-4 py-3">
      <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">{title}</h3>
      <div className="mt-2">{children}</div>
    </section>
  );
}

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0" data-testid={testId}>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="mt-0.5 truncate font-medium tabular-nums">{children}</dd>
    </div>
  );
}

function OutcomeTable({ t, rows }: { t: Texts; rows: TDecisionSignalOutcomeItem[] }) {
  if (rows.length === 0)
    return (
      <p className="text-sm text-muted" data-testid="signal-outcomes-empty">
        {t.outcomesEmpty}
      </p>
    );
  const th = "px-1.5 py-1 text-left text-xs font-medium whitespace-nowrap text-muted";
  const td = "px-1.5 py-1 whitespace-nowrap tabular-nums";
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="signal-outcomes">
        <thead className="border-b border-line">
          <tr>
            <th scope="col" className={th}>
              {t.outcomeHorizon}
            </th>
            <th scope="col" className={cx(th, "text-right")}>
              {t.outcomeReturn}
            </th>
            <th scope="col" className={cx(th, "text-right")}>
              {t.outcomeMfe}
            </th>
            <th scope="col" className={cx(th, "text-right")}>
              {t.outcomeMae}
            </th>
            <th scope="col" className={th}>
              {t.outcomeResult}
            </th>
            <th scope="col" className={th}>
              {t.outcomeFirstHit}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {rows.map((o) => {
            const window =
              o.anchor_date && o.start_price !== null
                ? fmt(t.outcomeWindow, { date: o.anchor_date, price: formatPrice(o.start_price) })
                : undefined;
            return (
              <tr
                key={o.horizon}
                data-testid="signal-outcome"
                data-horizon={o.horizon}
                data-eval-status={o.eval_status}
                title={window}
              >
                <th scope="row" className={cx(td, "text-left font-medium")}>
                  {labelOf(t.horizons, o.horizon)}
                </th>
                <td
                  className={cx(td, "text-right font-semibold", returnText(o.stock_return_pct))}
                  data-testid="outcome-return"
                >
                  {formatSignedPct(o.stock_return_pct)}
                </td>
                <td className={cx(td, "text-right")}>{formatSignedPct(o.max_favorable_excursion_pct)}</td>
                <td className={cx(td, "text-right")}>{formatSignedPct(o.max_adverse_excursion_pct)}</td>
                <td className={td} data-testid="outcome-result">
                  {o.eval_status === "unable" ? (
                    <span className="text-xs text-muted">
                      {t.outcomeUnable}
                      {o.unable_reason ? ` · ${labelOf(t.unableReasons, o.unable_reason)}` : ""}
                    </span>
                  ) : (
                    <span
                      className={cx(
                        "text-xs font-semibold",
                        o.outcome === "hit" ? "text-accent" : o.outcome === "miss" ? "text-fg" : "text-muted",
                      )}
                    >
                      {labelOf(t.outcomeValues, o.outcome)}
                    </span>
                  )}
                </td>
                <td className={cx(td, "text-xs")}>
                  {o.first_hit ? labelOf(t.firstHits, o.first_hit) : "—"}
                  {o.first_hit_date ? <span className="ml-1 text-muted">{o.first_hit_date.slice(5)}</span> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function FeedbackButtons({ t, signalId, initial }: { t: Texts; signalId: number; initial: FeedbackValue | null }) {
  const router = useRouter();
  const [value, setValue] = useState<FeedbackValue | null>(initial);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [, startTransition] = useTransition();
  const labels: Record<FeedbackValue, string> = { useful: t.feedbackUseful, not_useful: t.feedbackNotUseful };

  async function choose(next: FeedbackValue) {
    setBusy(true);
    setMessage(null);
    try {
      const saved = await putFeedback(signalId, next);
      const stored = saved.feedback_value ?? next;
      setValue(stored);
      setMessage(fmt(t.feedbackSaved, { value: labels[stored] }));
      startTransition(() => router.refresh());
    } catch (failure) {
      setMessage(fmt(t.feedbackFailed, { message: errorText(failure) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="signal-feedback" data-value={value ?? ""}>
      <div
        role="group"
        aria-label={t.feedbackTitle}
        className="inline-flex rounded-md border border-line bg-subtle p-0.5"
      >
        {(["useful", "not_useful"] as const).map((v) => (
          <button
            key={v}
            type="button"
            aria-pressed={value === v}
            disabled={busy}
            onClick={() => choose(v)}
            className={cx(
              "inline-flex h-7 items-center rounded px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:cursor-progress",
              value === v ? "bg-surface text-fg shadow-sm dark:bg-line" : "text-muted hover:text-fg",
            )}
          >
            {labels[v]}
          </button>
        ))}
      </div>
      <span role="status" className="text-xs text-muted">
        {message ?? (value === null ? t.feedbackNone : null)}
      </span>
    </div>
  );
}

function StatusActions({ t, signal }: { t: Texts; signal: TDecisionSignalItem }) {
  const router = useRouter();
  const [target, setTarget] = useState<StatusTarget | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [, startTransition] = useTransition();
  const targets = statusTargets(signal.status);

  async function confirm() {
    if (!target) return;
    setBusy(true);
    setError(null);
    try {
      const updated = await patchStatus(signal.id, target);
      setTarget(null);
      setNotice(fmt(t.statusChanged, { status: labelOf(t.statuses, updated.status) }));
      startTransition(() => router.refresh());
    } catch (failure) {
      setError(fmt(t.statusFailed, { message: errorText(failure) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div>
      {targets.length === 0 ? (
        <p className="text-sm text-muted">{t.statusNone}</p>
      ) : (
        <div className="flex flex-wrap gap-2">
          {targets.map((s) => (
            <button
              key={s}
              type="button"
              className={BUTTON}
              onClick={() => {
                setError(null);
                setTarget(s);
              }}
            >
              {t.statusActions[s]}
            </button>
          ))}
        </div>
      )}
      {notice ? (
        <p role="status" className="mt-2 text-xs text-muted">
          {notice}
        </p>
      ) : null}
      <ConfirmDialog
        open={target !== null}
        title={fmt(t.statusConfirmTitle, { id: signal.id, status: target ? labelOf(t.statuses, target) : "" })}
        confirmLabel={t.statusConfirm}
        cancelLabel={t.cancel}
        busyLabel={t.statusWorking}
        busy={busy}
        error={error}
        tone="default"
        onConfirm={confirm}
        onCancel={() => setTarget(null)}
      >
        {t.statusConfirmBody}
      </ConfirmDialog>
    </div>
  );
}

export interface SignalDrawerProps {
  t: Texts;
  signalId: number;
  signal: TDecisionSignalItem | null;
  outcomes: TDecisionSignalOutcomeItem[];
  feedback: TFeedbackItem | null;
  closeHref: string;
}

// The detail drawer of one signal: a modal side panel (native <dialog>: focus trap, Escape) opened by ?signal=<id>.
// Its data comes from the server render; feedback and status changes call the API and refresh the page.
export function SignalDrawer({ t, signalId, signal, outcomes, feedback, closeHref }: SignalDrawerProps) {
  const router = useRouter();
  const formatTime = useFormatTime();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  const close = () => router.push(closeHref, { scroll: false });
  const name = signal ? (signal.stock_name ?? signal.stock_code) : "";

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      data-testid="signal-drawer"
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) close();
      }}
      className="fixed inset-y-0 right-0 left-auto m-0 h-dvh max-h-none w-[min(34rem,100vw)] max-w-none overflow-y-auto border-l border-line bg-surface p-0 text-fg shadow-2xl backdrop:bg-black/30"
    >
      <div className="sticky top-0 z-10 flex items-start justify-between gap-3 border-b border-line bg-surface px-4 py-3">
        <div className="min-w-0">
          <h2 id={titleId} className="truncate text-base font-semibold">
            {signal ? (
              <>
                {name} <span className="font-mono text-sm font-normal text-muted">{signal.stock_code}</span>
              </>
            ) : (
              fmt(t.drawerTitle, { id: signalId })
            )}
          </h2>
          {signal ? (
            <div className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-muted">
              <span>{fmt(t.drawerTitle, { id: signal.id })}</span>
              <ActionBadge t={t} action={signal.action} />
              <StatusBadge t={t} status={signal.status} />
              <span>{labelOf(t.markets, signal.market)}</span>
            </div>
          ) : null}
        </div>
        <button type="button" onClick={close} className={BUTTON}>
          {t.close}
        </button>
      </div>

      {signal === null ? (
        <p role="alert" className="px-4 py-6 text-sm">
          {fmt(t.notFound, { id: signalId })}
        </p>
      ) : (
        <>
          <Section title={t.planTitle}>
            <dl className="grid grid-cols-2 gap-3 min-[26rem]:grid-cols-3" data-testid="signal-plan">
              <Fact label={t.entryRange} testId="plan-entry">
                {formatRange(signal.entry_low, signal.entry_high)}
              </Fact>
              <Fact label={t.stopLoss} testId="plan-stop">
                {formatPrice(signal.stop_loss)}
              </Fact>
              <Fact label={t.targetPrice} testId="plan-target">
                {formatPrice(signal.target_price)}
              </Fact>
              <Fact label={t.horizon}>{labelOf(t.horizons, signal.horizon)}</Fact>
              <Fact label={t.score}>{signal.score ?? "—"}</Fact>
              <Fact label={t.confidence}>{formatConfidence(signal.confidence)}</Fact>
              <Fact label={t.planQuality}>{labelOf(t.planQualities, signal.plan_quality)}</Fact>
              <Fact label={t.createdAt}>{formatTime(signal.created_at)}</Fact>
              <Fact label={t.expiresAt}>{signal.expires_at ? formatTime(signal.expires_at) : t.noExpiry}</Fact>
            </dl>
          </Section>

          <Section title={t.source}>
            <p className="text-sm" data-testid="signal-source">
              {labelOf(t.sources, signal.source_type)}
              <span className="text-muted">
                {" "}
                · {t.trigger} {signal.trigger_source}
              </span>
            </p>
            <p className="mt-1 text-sm">
              {signal.source_report_id !== null ? (
                <Link
                  href={`/history/${signal.source_report_id}`}
                  className="text-accent underline-offset-2 hover:underline"
                  data-testid="signal-report-link"
                >
                  {fmt(t.reportLink, { id: signal.source_report_id })}
                </Link>
              ) : (
                <span className="text-muted">{t.noReport}</span>
              )}
            </p>
            {(
              [
                [t.reason, signal.reason],
                [t.risk, signal.risk_summary],
                [t.invalidation, signal.invalidation],
                [t.watchConditions, signal.watch_conditions],
              ] as const
            )
              .filter(([, text]) => text)
              .map(([label, text]) => (
                <p key={label} className="mt-2 text-sm leading-6">
                  <span className="mr-1 text-xs text-muted">{label}</span>
                  {text}
                </p>
              ))}
          </Section>

          <Section title={t.outcomesTitle}>
            <OutcomeTable t={t} rows={outcomes} />
          </Section>

          <Section title={t.feedbackTitle}>
            <FeedbackButtons t={t} signalId={signal.id} initial={feedback?.feedback_value ?? null} />
          </Section>

          <Section title={t.statusTitle}>
            <StatusActions t={t} signal={signal} />
          </Section>
        </>
      )}
    </dialog>
  );
}
