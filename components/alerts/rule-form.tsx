"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { StockSearchInput, type StockSuggestion } from "@/components/analysis/stock-search-input";
import { fmt } from "@/components/settings/format";
import type { TAlertRule, TAlertType } from "@/lib/alerts/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { ALERT_TYPE_LIST, ERROR_TEXT, FIELD, LABEL, PARAMETER_OF, PRIMARY_BUTTON, SEVERITY_LIST, SIGNAL_ACTION_LIST, type AlertTexts } from "./format";
import { messageOf, requestJson } from "./request";

type Action = (typeof SIGNAL_ACTION_LIST)[number];

// Creates a rule (POST /api/v1/alerts/rules). The parameter input follows the chosen type: a number for the
// price, change and volume-ratio types, an action picker for the decision-signal type.
export function AlertRuleForm({ t, search, locale }: { t: AlertTexts; search: Dictionary["analyzeUi"]; locale: string }) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const [text, setText] = useState("");
  const [picked, setPicked] = useState<StockSuggestion | null>(null);
  const [type, setType] = useState<TAlertType>("price_above");
  const [value, setValue] = useState("");
  const [action, setAction] = useState<Action>("sell");
  const [name, setName] = useState("");
  const [severity, setSeverity] = useState<TAlertRule["severity"]>("warning");
  const [cooldown, setCooldown] = useState("60");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const parameter = PARAMETER_OF[type];

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    const target = picked?.display_code ?? text.trim();
    if (!target) return setError(t.targetRequired);
    let parameters: Record<string, number | string>;
    if (parameter === "action") parameters = { action };
    else {
      const number = Number(value.trim());
      if (!value.trim() || !Number.isFinite(number)) return setError(fmt(t.parameterRequired, { param: t.paramLabels[parameter] }));
      parameters = { [parameter]: number };
    }
    setBusy(true);
    try {
      const rule = await requestJson<TAlertRule>("POST", "/api/v1/alerts/rules", {
        alert_type: type,
        target,
        parameters,
        severity,
        cooldown_minutes: Number(cooldown) || 0,
        ...(name.trim() ? { name: name.trim() } : {}),
      });
      setNotice(fmt(t.created, { name: rule.name }));
      setValue("");
      setName("");
      startTransition(() => router.refresh());
    } catch (failure) {
      setError(fmt(t.requestFailed, { message: messageOf(failure) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} aria-label={t.createTitle} className="space-y-2.5 px-3 py-3" noValidate>
      <div className="grid grid-cols-2 items-end gap-2 md:grid-cols-[minmax(12rem,1.4fr)_minmax(9rem,1fr)_minmax(7rem,0.8fr)_minmax(7rem,1fr)]">
        <div className="col-span-2 md:col-span-1">
          <StockSearchInput
            t={{ ...search, codeLabel: t.targetLabel }}
            locale={locale}
            text={text}
            onTextChange={(next) => {
              setText(next);
              setPicked(null);
            }}
            onPick={setPicked}
            disabled={busy}
          />
        </div>
        <label className={LABEL}>
          {t.typeLabel}
          <select value={type} onChange={(e) => setType(e.target.value as TAlertType)} className={`${FIELD} h-9`}>
            {ALERT_TYPE_LIST.map((item) => (
              <option key={item} value={item}>
                {t.types[item]}
              </option>
            ))}
          </select>
        </label>
        {parameter === "action" ? (
          <label className={LABEL}>
            {t.paramLabels.action}
            <select value={action} onChange={(e) => setAction(e.target.value as Action)} className={`${FIELD} h-9`}>
              {SIGNAL_ACTION_LIST.map((item) => (
                <option key={item} value={item}>
                  {t.actions[item]}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <label className={LABEL}>
            {t.paramLabels[parameter]}
            <input
              type="number"
              inputMode="decimal"
              min="0"
              step="any"
              value={value}
              onChange={(e) => setValue(e.target.value)}
              className={`${FIELD} h-9`}
            />
          </label>
        )}
        <label className={`${LABEL} col-span-2 md:col-span-1`}>
          {t.nameLabel}
          <input type="text" value={name} maxLength={100} placeholder={t.namePlaceholder} onChange={(e) => setName(e.target.value)} className={`${FIELD} h-9`} />
        </label>
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <label className={`${LABEL} w-28`}>
          {t.severityLabel}
          <select value={severity} onChange={(e) => setSeverity(e.target.value as TAlertRule["severity"])} className={FIELD}>
            {SEVERITY_LIST.map((item) => (
              <option key={item} value={item}>
                {t.severities[item]}
              </option>
            ))}
          </select>
        </label>
        <label className={`${LABEL} w-28`}>
          {t.cooldownLabel}
          <input type="number" min="0" max="10080" step="1" value={cooldown} onChange={(e) => setCooldown(e.target.value)} className={FIELD} />
        </label>
        <button type="submit" disabled={busy} className={PRIMARY_BUTTON}>
          {busy ? t.creating : t.create}
        </button>
      </div>
      {error ? (
        <p role="alert" className={ERROR_TEXT}>
          {error}
        </p>
      ) : null}
      {notice ? (
        <p role="status" className="text-sm text-muted">
          {notice}
        </p>
      ) : null}
    </form>
  );
}
