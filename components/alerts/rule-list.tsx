"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { fmt } from "@/components/settings/format";
import { useFormatTime } from "@/components/shell/time-zone";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { cx } from "@/components/ui/cx";
import { CARD, CARD_BLOCK, CARD_HEAD, CARD_ROW, FULL, LABELLED } from "@/components/ui/table-cards";
import type { RuleReading } from "@/lib/alerts/rule-readings";
import type { TAlertRule, TAlertTestResult } from "@/lib/alerts/schemas";
import {
  conditionText,
  EDITABLE,
  ERROR_TEXT,
  FIELD_BASE,
  plainNumber,
  SMALL_BUTTON,
  targetText,
  TD,
  testReason,
  TH,
  type AlertTexts,
  type Params,
} from "./format";
import { messageOf, requestJson } from "@/components/ui/request";
import { RuleReadingCell } from "./rule-reading";

// The rules table: enable/disable (POST .../enable, .../disable), a new threshold (PATCH), a dry run (POST .../test)
// and delete with a confirmation. Every change refreshes the server-rendered page, so the table shows what the
// database holds. Each enabled stock rule shows its current value and distance to the trigger. On a phone each rule
// is a card: name and target, condition, the reading, last value and firing, then the switch and the buttons.

function stateText(t: AlertTexts, rule: TAlertRule): string {
  if (rule.targets.length === 0) return t.notChecked;
  if (rule.targets.length === 1) return rule.targets[0]!.armed ? t.armed : t.disarmed;
  return fmt(t.targetsState, { count: rule.targets.length, fired: rule.targets.filter((s) => !s.armed).length });
}

function TestFeedback({ t, rule, result }: { t: AlertTexts; rule: TAlertRule; result: TAlertTestResult }) {
  const many = result.target_results.length > 1;
  const first = result.target_results[0];
  return (
    <div role="status" data-testid="alert-rule-test" data-status={result.status} className="space-y-1 tabular-nums">
      <p>
        <span className={cx("mr-1.5 font-semibold", result.triggered ? "text-accent" : "text-muted")}>
          {t.testStatuses[result.status]}
        </span>
        {many ? null : fmt(t.testResult, { reason: first ? testReason(t, rule, first) : result.message })}
        {!many && first && first.status !== "skipped" && first.status !== "evaluation_error" ? (
          <span className="ml-1.5 text-muted">
            (
            {fmt(t.testObserved, {
              observed: plainNumber(first.observed_value),
              threshold: plainNumber(first.threshold),
            })}
            )
          </span>
        ) : null}
      </p>
      {many ? (
        <>
          <p className="text-muted">
            {fmt(t.testCounts, {
              evaluated: result.evaluated_count,
              triggered: result.triggered_count,
              skipped: result.skipped_count,
              degraded: result.degraded_count,
            })}
          </p>
          <ul className="grid gap-x-4 sm:grid-cols-2">
            {result.target_results.map((r) => (
              <li
                key={r.target}
                data-testid="alert-rule-test-target"
                data-status={r.status}
                className="truncate"
                title={r.message}
              >
                <span className="font-medium">{r.display_target}</span> · {t.testStatuses[r.status]} ·{" "}
                {plainNumber(r.observed_value)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

function RuleRow({
  t,
  rule,
  reading,
  accounts,
  onNotice,
}: {
  t: AlertTexts;
  rule: TAlertRule;
  reading: RuleReading | undefined;
  accounts: ReadonlyMap<number, string>;
  onNotice: (text: string) => void;
}) {
  const formatTime = useFormatTime();
  const router = useRouter();
  const [, startTransition] = useTransition();
  const parameters = rule.parameters as Params;
  const editable = EDITABLE[rule.alert_type];
  const current = editable === undefined ? "" : String(parameters[editable] ?? "");
  const [draft, setDraft] = useState(current);
  const [busy, setBusy] = useState<"toggle" | "save" | "test" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [test, setTest] = useState<TAlertTestResult | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const refresh = () => startTransition(() => router.refresh());
  const paramLabel = editable ? t.paramLabels[editable as keyof AlertTexts["paramLabels"]] : "";

  async function run(kind: "toggle" | "save" | "test", work: () => Promise<void>) {
    setBusy(kind);
    setError(null);
    try {
      await work();
    } catch (failure) {
      setError(fmt(t.requestFailed, { message: messageOf(failure) }));
    } finally {
      setBusy(null);
    }
  }

  const toggle = () =>
    run("toggle", async () => {
      await requestJson("POST", `/api/v1/alerts/rules/${rule.id}/${rule.enabled ? "disable" : "enable"}`);
      refresh();
    });

  const save = (event: FormEvent) => {
    event.preventDefault();
    void run("save", async () => {
      if (!editable || !draft.trim() || !Number.isFinite(Number(draft)))
        throw new Error(fmt(t.parameterRequired, { param: paramLabel }));
      const updated = await requestJson<TAlertRule>("PATCH", `/api/v1/alerts/rules/${rule.id}`, {
        parameters: { ...parameters, [editable]: Number(draft) },
      });
      onNotice(fmt(t.saved, { name: updated.name }));
      refresh();
    });
  };

  const dryRun = () =>
    run("test", async () => {
      setTest(await requestJson<TAlertTestResult>("POST", `/api/v1/alerts/rules/${rule.id}/test`));
    });

  async function confirmDelete() {
    setDeleting(true);
    setDeleteError(null);
    try {
      await requestJson("DELETE", `/api/v1/alerts/rules/${rule.id}`);
      setConfirming(false);
      onNotice(fmt(t.deleted, { name: rule.name }));
      refresh();
    } catch (failure) {
      setDeleteError(fmt(t.requestFailed, { message: messageOf(failure) }));
    } finally {
      setDeleting(false);
    }
  }

  const single = rule.targets.length === 1 ? rule.targets[0]! : null;
  return (
    <>
      <tr data-testid="alert-rule-row" data-rule-id={rule.id} className={cx(CARD_ROW, !rule.enabled && "text-muted")}>
        <td className={cx(TD, CARD, FULL)}>
          <div className="max-w-[16rem] truncate font-medium max-sm:max-w-none" title={rule.name}>
            {rule.name}
          </div>
          <div className="text-xs text-muted tabular-nums">
            <span data-testid="alert-rule-target">{targetText(t, rule, accounts)}</span> · {t.severities[rule.severity]}{" "}
            · <span data-testid="alert-rule-state">{stateText(t, rule)}</span> ·{" "}
            {fmt(t.source, { source: rule.source })}
          </div>
        </td>
        <td className={cx(TD, LABELLED, FULL)} data-label={t.colCondition}>
          <form onSubmit={save} className="flex flex-wrap items-center gap-1.5">
            <span className="text-xs text-muted" data-testid="alert-rule-condition">
              {conditionText(t, rule, editable)}
            </span>
            {editable ? (
              <span className="text-xs text-muted" aria-hidden="true">
                {paramLabel}
              </span>
            ) : null}
            {editable ? (
              <input
                type="number"
                step="any"
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                aria-label={fmt(t.thresholdAria, { name: rule.name, param: paramLabel })}
                className={cx(FIELD_BASE, "h-7 w-24")}
              />
            ) : null}
            {editable && draft !== current ? (
              <button type="submit" disabled={busy !== null} className={SMALL_BUTTON}>
                {busy === "save" ? t.saving : t.save}
              </button>
            ) : null}
          </form>
        </td>
        <td className={cx(TD, LABELLED, FULL)} data-label={t.colNow}>
          <RuleReadingCell t={t} reading={reading} multi={rule.target_scope !== "single_symbol"} />
        </td>
        <td
          className={cx(TD, "text-right tabular-nums", LABELLED)}
          data-label={t.colLast}
          data-testid="alert-rule-last-value"
        >
          {plainNumber(single?.last_value)}
        </td>
        <td className={cx(TD, "whitespace-nowrap tabular-nums", LABELLED)} data-label={t.colLastTriggered}>
          <div>{rule.last_triggered_at ? formatTime(rule.last_triggered_at) : "—"}</div>
          {rule.cooldown_active && rule.cooldown_until ? (
            <div className="text-xs text-muted" data-testid="alert-rule-cooldown">
              {fmt(t.cooling, { until: formatTime(rule.cooldown_until) })}
            </div>
          ) : null}
        </td>
        <td className={cx(TD, LABELLED)} data-label={t.colEnabled}>
          <input
            type="checkbox"
            role="switch"
            checked={rule.enabled}
            disabled={busy !== null}
            onChange={toggle}
            aria-label={fmt(t.enabledAria, { name: rule.name })}
            className="size-4 accent-accent"
          />
        </td>
        <td className={cx(TD, CARD, "max-sm:self-end")}>
          <div className="flex gap-1.5">
            <button
              type="button"
              onClick={dryRun}
              disabled={busy !== null}
              aria-label={fmt(t.testAria, { name: rule.name })}
              className={SMALL_BUTTON}
            >
              {busy === "test" ? t.testing : t.test}
            </button>
            <button
              type="button"
              onClick={() => {
                setDeleteError(null);
                setConfirming(true);
              }}
              aria-label={fmt(t.deleteAria, { name: rule.name })}
              className={SMALL_BUTTON}
            >
              {t.delete}
            </button>
          </div>
          <ConfirmDialog
            open={confirming}
            title={fmt(t.deleteTitle, { name: rule.name })}
            confirmLabel={t.confirmDelete}
            cancelLabel={t.cancel}
            busyLabel={t.deleting}
            busy={deleting}
            error={deleteError}
            onConfirm={confirmDelete}
            onCancel={() => setConfirming(false)}
          >
            {t.deleteBody}
          </ConfirmDialog>
        </td>
      </tr>
      {test || error ? (
        <tr data-testid="alert-rule-feedback" data-rule-id={rule.id} className={CARD_BLOCK}>
          <td colSpan={7} className={cx("bg-subtle px-2 py-1.5 text-xs", CARD_BLOCK)}>
            {error ? (
              <p role="alert" className={ERROR_TEXT}>
                {error}
              </p>
            ) : null}
            {test ? <TestFeedback t={t} rule={rule} result={test} /> : null}
          </td>
        </tr>
      ) : null}
    </>
  );
}

export function AlertRuleList({
  t,
  rules,
  readings = {},
  accounts,
}: {
  t: AlertTexts;
  rules: TAlertRule[];
  /** By rule id (lib/alerts/rule-readings.ts); absent: no reading shown. */
  readings?: Readonly<Record<number, RuleReading>>;
  accounts: ReadonlyMap<number, string>;
}) {
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <div>
      {notice ? (
        <p role="status" className="border-b border-line px-3 py-1.5 text-sm text-muted">
          {notice}
        </p>
      ) : null}
      {rules.length === 0 ? (
        <p data-testid="alert-rules-empty" className="px-3 py-6 text-center text-sm text-muted">
          {t.rulesEmpty}
        </p>
      ) : (
        <div className="sm:overflow-x-auto">
          <table className={cx("w-full text-sm sm:min-w-[56rem]", CARD_BLOCK)} data-testid="alert-rules">
            <thead className={cx("border-b border-line bg-subtle", CARD_HEAD)}>
              <tr>
                <th scope="col" className={TH}>
                  {t.colRule}
                </th>
                <th scope="col" className={TH}>
                  {t.colCondition}
                </th>
                <th scope="col" className={TH}>
                  {t.colNow}
                </th>
                <th scope="col" className={cx(TH, "text-right")}>
                  {t.colLast}
                </th>
                <th scope="col" className={TH}>
                  {t.colLastTriggered}
                </th>
                <th scope="col" className={TH}>
                  {t.colEnabled}
                </th>
                <th scope="col" className={TH}>
                  {t.colActions}
                </th>
              </tr>
            </thead>
            <tbody className={cx("divide-y divide-line", CARD_BLOCK)}>
              {rules.map((rule) => (
                <RuleRow
                  key={rule.id}
                  t={t}
                  rule={rule}
                  reading={readings[rule.id]}
                  accounts={accounts}
                  onNotice={setNotice}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
