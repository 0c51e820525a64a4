"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { StockSearchInput, type StockSuggestion } from "@/components/analysis/stock-search-input";
import { fmt } from "@/components/settings/format";
import type { TAlertRule, TAlertType, TTargetScope } from "@/lib/alerts/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import {
  ERROR_TEXT,
  FIELD,
  LABEL,
  PARAMETER_FIELDS,
  PRIMARY_BUTTON,
  REGION_LIST,
  SCOPE_LIST,
  SEVERITY_LIST,
  typesOf,
  type AlertTexts,
  type FieldSpec,
} from "./format";
import { messageOf, requestJson } from "@/components/ui/request";

export interface AccountChoice {
  id: number;
  name: string;
}

type Values = Record<string, string>;

function initialValues(type: TAlertType): Values {
  const values: Values = {};
  for (const field of PARAMETER_FIELDS[type]) {
    if (field.kind === "number") values[field.key] = field.initial === undefined ? "" : String(field.initial);
    if (field.kind === "select") values[field.key] = field.key === "action" ? "sell" : field.options[0]!;
  }
  return values;
}

const labelOf = (t: AlertTexts, key: string) => t.paramLabels[key as keyof AlertTexts["paramLabels"]] ?? key;

function optionLabel(t: AlertTexts, field: Extract<FieldSpec, { kind: "select" }>, option: string): string {
  const names: Record<string, string> =
    field.key === "direction" ? t.directions : field.key === "mode" ? t.modes : t.actions;
  return names[option] ?? option;
}

// Creates a rule (POST /api/v1/alerts/rules) in the shape of docs/api.md §12.2.1: a scope, its target, a type the
// scope offers, and that type's parameters (the inputs follow the type, with the reference form's defaults).
export function AlertRuleForm({
  t,
  search,
  locale,
  accounts,
  watchlistCount,
}: {
  t: AlertTexts;
  search: Dictionary["analyzeUi"];
  locale: string;
  accounts: readonly AccountChoice[];
  watchlistCount: number;
}) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const [scope, setScope] = useState<TTargetScope>("single_symbol");
  const [type, setType] = useState<TAlertType>("price_cross");
  const [text, setText] = useState("");
  const [picked, setPicked] = useState<StockSuggestion | null>(null);
  const [account, setAccount] = useState("all");
  const [region, setRegion] = useState<string>("cn");
  const [values, setValues] = useState<Values>(() => initialValues("price_cross"));
  const [statuses, setStatuses] = useState<string[]>(["red", "yellow"]);
  const [name, setName] = useState("");
  const [severity, setSeverity] = useState<TAlertRule["severity"]>("warning");
  const [cooldown, setCooldown] = useState("60");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  function chooseType(next: TAlertType) {
    setType(next);
    setValues(initialValues(next));
    setStatuses(["red", "yellow"]);
  }

  function chooseScope(next: TTargetScope) {
    setScope(next);
    if (!typesOf(next).includes(type)) chooseType(typesOf(next)[0]!);
  }

  function targetOf(): string | null {
    switch (scope) {
      case "single_symbol":
        return picked?.display_code ?? (text.trim() || null);
      case "watchlist":
        return "default";
      case "portfolio_holdings":
      case "portfolio_account":
        return account;
      case "market":
        return region;
    }
  }

  function parametersOf(): Record<string, unknown> | string {
    const parameters: Record<string, unknown> = {};
    for (const field of PARAMETER_FIELDS[type]) {
      if (field.kind === "select") parameters[field.key] = values[field.key];
      if (field.kind === "multi") {
        if (statuses.length === 0) return t.statusesRequired;
        parameters[field.key] = statuses;
      }
      if (field.kind === "number") {
        const raw = (values[field.key] ?? "").trim();
        const number = Number(raw);
        if (!raw || !Number.isFinite(number)) return fmt(t.parameterRequired, { param: labelOf(t, field.key) });
        parameters[field.key] = number;
      }
    }
    return parameters;
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    const target = targetOf();
    if (!target) return setError(t.targetRequired);
    const parameters = parametersOf();
    if (typeof parameters === "string") return setError(parameters);
    setBusy(true);
    try {
      const rule = await requestJson<TAlertRule>("POST", "/api/v1/alerts/rules", {
        target_scope: scope,
        target,
        alert_type: type,
        parameters,
        severity,
        enabled: true,
        cooldown_policy: { cooldown_seconds: Math.max(0, Math.round((Number(cooldown) || 0) * 60)) },
        ...(name.trim() ? { name: name.trim() } : {}),
      });
      setNotice(fmt(t.created, { name: rule.name }));
      setName("");
      startTransition(() => router.refresh());
    } catch (failure) {
      setError(fmt(t.requestFailed, { message: messageOf(failure) }));
    } finally {
      setBusy(false);
    }
  }

  const fields = PARAMETER_FIELDS[type];
  return (
    <form onSubmit={submit} aria-label={t.createTitle} className="space-y-2.5 px-3 py-3" noValidate>
      <div className="grid grid-cols-2 items-end gap-2 md:grid-cols-[minmax(8rem,0.8fr)_minmax(12rem,1.4fr)_minmax(9rem,1fr)]">
        <label className={LABEL}>
          {t.scopeLabel}
          <select
            value={scope}
            onChange={(e) => chooseScope(e.target.value as TTargetScope)}
            className={`${FIELD} h-9`}
          >
            {SCOPE_LIST.map((item) => (
              <option key={item} value={item}>
                {t.scopes[item]}
              </option>
            ))}
          </select>
        </label>
        <div className="col-span-2 min-w-0 md:col-span-1">
          {scope === "single_symbol" ? (
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
          ) : scope === "watchlist" ? (
            <p className="flex h-9 items-center text-sm text-muted" data-testid="alert-watchlist-target">
              {fmt(t.watchlistTarget, { count: watchlistCount })}
            </p>
          ) : scope === "market" ? (
            <label className={LABEL}>
              {t.regionLabel}
              <select value={region} onChange={(e) => setRegion(e.target.value)} className={`${FIELD} h-9`}>
                {REGION_LIST.map((item) => (
                  <option key={item} value={item}>
                    {t.regions[item]}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <label className={LABEL}>
              {t.accountLabel}
              <select value={account} onChange={(e) => setAccount(e.target.value)} className={`${FIELD} h-9`}>
                <option value="all">{t.allAccounts}</option>
                {accounts.map((a) => (
                  <option key={a.id} value={String(a.id)}>
                    {a.name} (#{a.id})
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        <label className={LABEL}>
          {t.typeLabel}
          <select value={type} onChange={(e) => chooseType(e.target.value as TAlertType)} className={`${FIELD} h-9`}>
            {typesOf(scope).map((item) => (
              <option key={item} value={item}>
                {t.types[item]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="flex flex-wrap items-end gap-2" data-testid="alert-parameters">
        {fields.length === 0 ? <p className="text-xs text-muted">{t.riskThresholds}</p> : null}
        {fields.map((field) =>
          field.kind === "select" ? (
            <label key={field.key} className={`${LABEL} w-32`}>
              {labelOf(t, field.key)}
              <select
                value={values[field.key] ?? ""}
                onChange={(e) => setValues({ ...values, [field.key]: e.target.value })}
                className={FIELD}
              >
                {field.options.map((option) => (
                  <option key={option} value={option}>
                    {optionLabel(t, field, option)}
                  </option>
                ))}
              </select>
            </label>
          ) : field.kind === "multi" ? (
            <fieldset key={field.key} className={`${LABEL} gap-1.5`}>
              <legend className="mb-1">{labelOf(t, field.key)}</legend>
              <div className="flex h-8 items-center gap-3">
                {field.options.map((option) => (
                  <label key={option} className="flex items-center gap-1 text-sm text-fg">
                    <input
                      type="checkbox"
                      checked={statuses.includes(option)}
                      onChange={(e) =>
                        setStatuses(e.target.checked ? [...statuses, option] : statuses.filter((s) => s !== option))
                      }
                      className="size-4 accent-accent"
                    />
                    {t.lights[option as keyof AlertTexts["lights"]]}
                  </label>
                ))}
              </div>
            </fieldset>
          ) : (
            <label key={field.key} className={`${LABEL} w-28`}>
              {labelOf(t, field.key)}
              <input
                type="number"
                inputMode="decimal"
                step={field.integer ? "1" : "any"}
                value={values[field.key] ?? ""}
                onChange={(e) => setValues({ ...values, [field.key]: e.target.value })}
                className={FIELD}
              />
            </label>
          ),
        )}
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <label className={`${LABEL} w-full sm:w-56`}>
          {t.nameLabel}
          <input
            type="text"
            value={name}
            maxLength={64}
            placeholder={t.namePlaceholder}
            onChange={(e) => setName(e.target.value)}
            className={FIELD}
          />
        </label>
        <label className={`${LABEL} w-28`}>
          {t.severityLabel}
          <select
            value={severity}
            onChange={(e) => setSeverity(e.target.value as TAlertRule["severity"])}
            className={FIELD}
          >
            {SEVERITY_LIST.map((item) => (
              <option key={item} value={item}>
                {t.severities[item]}
              </option>
            ))}
          </select>
        </label>
        <label className={`${LABEL} w-28`}>
          {t.cooldownLabel}
          <input
            type="number"
            min="0"
            max="10080"
            step="1"
            value={cooldown}
            onChange={(e) => setCooldown(e.target.value)}
            className={FIELD}
          />
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
