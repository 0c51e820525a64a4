"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { formatDateTime } from "@/components/history/format";
import { fmt } from "@/components/settings/format";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { cx } from "@/components/ui/cx";
import type { TAlertCheck, TAlertRule } from "@/lib/alerts/schemas";
import { ERROR_TEXT, FIELD_BASE, PARAMETER_OF, parameterValue, plainNumber, SIGNAL_ACTION_LIST, SMALL_BUTTON, TD, TH, type AlertTexts } from "./format";
import { messageOf, requestJson } from "./request";

// The rules table: enable/disable, a new threshold (PATCH), a dry run (POST .../test) and delete with a
// confirmation. Every change refreshes the server-rendered page, so the table shows what the database holds.

function RuleRow({ t, rule, timeZone, onNotice }: { t: AlertTexts; rule: TAlertRule; timeZone: string; onNotice: (text: string) => void }) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const parameter = PARAMETER_OF[rule.alert_type];
  const [draft, setDraft] = useState(parameterValue(rule));
  const [busy, setBusy] = useState<"toggle" | "save" | "test" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [check, setCheck] = useState<TAlertCheck | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const refresh = () => startTransition(() => router.refresh());

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
      await requestJson("PATCH", `/api/v1/alerts/rules/${rule.id}`, { enabled: !rule.enabled });
      refresh();
    });

  const save = (event: FormEvent) => {
    event.preventDefault();
    void run("save", async () => {
      const parameters = parameter === "action" ? { action: draft } : { [parameter]: Number(draft) };
      if (parameter !== "action" && (!draft.trim() || !Number.isFinite(Number(draft)))) throw new Error(fmt(t.parameterRequired, { param: t.paramLabels[parameter] }));
      const updated = await requestJson<TAlertRule>("PATCH", `/api/v1/alerts/rules/${rule.id}`, { parameters });
      onNotice(fmt(t.saved, { name: updated.name }));
      refresh();
    });
  };

  const test = () =>
    run("test", async () => {
      setCheck(await requestJson<TAlertCheck>("POST", `/api/v1/alerts/rules/${rule.id}/test`));
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

  const changed = draft !== parameterValue(rule);
  return (
    <>
      <tr data-testid="alert-rule-row" data-rule-id={rule.id} className={cx(!rule.enabled && "text-muted")}>
        <td className={TD}>
          <div className="max-w-[16rem] truncate font-medium" title={rule.name}>
            {rule.name}
          </div>
          <div className="text-xs text-muted tabular-nums">
            {rule.target} · {t.severities[rule.severity]} · <span title={rule.armed ? t.armed : t.disarmed}>{rule.armed ? t.armed : t.disarmed}</span>
          </div>
        </td>
        <td className={TD}>
          <form onSubmit={save} className="flex items-center gap-1.5">
            <span className="text-xs whitespace-nowrap text-muted">{t.types[rule.alert_type]}</span>
            {parameter === "action" ? (
              <select value={draft} onChange={(e) => setDraft(e.target.value)} aria-label={fmt(t.thresholdAria, { name: rule.name, param: t.paramLabels.action })} className={cx(FIELD_BASE, "h-7 w-24")}>
                {SIGNAL_ACTION_LIST.map((item) => (
                  <option key={item} value={item}>
                    {t.actions[item]}
                  </option>
                ))}
              </select>
            ) : (
              <input
                type="number"
                step="any"
                min="0"
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                aria-label={fmt(t.thresholdAria, { name: rule.name, param: t.paramLabels[parameter] })}
                className={cx(FIELD_BASE, "h-7 w-24")}
              />
            )}
            {changed ? (
              <button type="submit" disabled={busy !== null} className={SMALL_BUTTON}>
                {busy === "save" ? t.saving : t.save}
              </button>
            ) : null}
          </form>
        </td>
        <td className={cx(TD, "text-right tabular-nums")} data-testid="alert-rule-last-value">
          {plainNumber(rule.last_value)}
        </td>
        <td className={cx(TD, "whitespace-nowrap tabular-nums")}>{rule.last_triggered_at ? formatDateTime(rule.last_triggered_at, timeZone) : "—"}</td>
        <td className={TD}>
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
        <td className={TD}>
          <div className="flex gap-1.5">
            <button type="button" onClick={test} disabled={busy !== null} aria-label={fmt(t.testAria, { name: rule.name })} className={SMALL_BUTTON}>
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
      {check || error ? (
        <tr data-testid="alert-rule-feedback" data-rule-id={rule.id}>
          <td colSpan={6} className="bg-subtle px-2 py-1.5 text-xs">
            {error ? (
              <p role="alert" className={ERROR_TEXT}>
                {error}
              </p>
            ) : null}
            {check ? (
              <p role="status" data-testid="alert-rule-test" data-met={check.met} data-evaluated={check.evaluated} className="tabular-nums">
                <span className={cx("mr-1.5 font-semibold", check.met ? "text-accent" : "text-muted")}>
                  {!check.evaluated ? t.testSkipped : check.met ? t.testMet : t.testNotMet}
                </span>
                {fmt(t.testResult, { reason: check.reason })}
                {check.evaluated ? <span className="ml-1.5 text-muted">({fmt(t.testObserved, { observed: plainNumber(check.observed_value), threshold: plainNumber(check.threshold) })})</span> : null}
              </p>
            ) : null}
          </td>
        </tr>
      ) : null}
    </>
  );
}

export function AlertRuleList({ t, rules, timeZone }: { t: AlertTexts; rules: TAlertRule[]; timeZone: string }) {
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
        <div className="overflow-x-auto">
          <table className="w-full min-w-[44rem] text-sm" data-testid="alert-rules">
            <thead className="border-b border-line bg-subtle">
              <tr>
                <th scope="col" className={TH}>{t.colRule}</th>
                <th scope="col" className={TH}>{t.colCondition}</th>
                <th scope="col" className={cx(TH, "text-right")}>{t.colLast}</th>
                <th scope="col" className={TH}>{t.colLastTriggered}</th>
                <th scope="col" className={TH}>{t.colEnabled}</th>
                <th scope="col" className={TH}>{t.colActions}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {rules.map((rule) => (
                <RuleRow key={rule.id} t={t} rule={rule} timeZone={timeZone} onNotice={setNotice} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

