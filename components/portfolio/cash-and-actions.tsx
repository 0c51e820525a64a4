"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { ERROR_TEXT, FIELD, LABEL, PRIMARY_BUTTON } from "@/components/alerts/format";
import { messageOf, requestJson } from "@/components/ui/request";
import { fmt } from "@/components/settings/format";
import type { TCashEntry, TCorporateAction } from "@/lib/portfolio/event-schemas";
import { money, type PortfolioTexts } from "./format";

// The cash ledger (POST /api/v1/portfolio/cash-ledger) and corporate actions (POST /corporate-actions) of the open
// account (docs/api.md §12.1.11-12); the page re-reads the snapshot after each write.

type Status = { error: boolean; text: string } | null;

function StatusLine({ status }: { status: Status }) {
  if (!status) return null;
  return (
    <p
      role={status.error ? "alert" : "status"}
      className={status.error ? `${ERROR_TEXT} break-words` : "text-sm text-muted"}
    >
      {status.text}
    </p>
  );
}

function useSubmit() {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  async function run(t: PortfolioTexts, work: () => Promise<string>) {
    setBusy(true);
    setStatus(null);
    try {
      setStatus({ error: false, text: await work() });
      startTransition(() => router.refresh());
    } catch (failure) {
      setStatus({ error: true, text: fmt(t.requestFailed, { message: messageOf(failure) }) });
    } finally {
      setBusy(false);
    }
  }
  return { busy, status, setStatus, run };
}

export function CashEntryForm({
  t,
  accountId,
  baseCurrency,
  today,
}: {
  t: PortfolioTexts;
  accountId: number;
  baseCurrency: string;
  today: string;
}) {
  const [direction, setDirection] = useState<"in" | "out">("in");
  const [amount, setAmount] = useState("");
  const [currency, setCurrency] = useState("");
  const [date, setDate] = useState(today);
  const [note, setNote] = useState("");
  const { busy, status, setStatus, run } = useSubmit();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = Number(amount);
    if (!(value > 0) || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return setStatus({ error: true, text: t.cashInvalid });
    await run(t, async () => {
      const entry = await requestJson<TCashEntry>("POST", "/api/v1/portfolio/cash-ledger", {
        account_id: accountId,
        event_date: date,
        direction,
        amount: value,
        ...(currency.trim() ? { currency: currency.trim().toUpperCase() } : {}),
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      setAmount("");
      setNote("");
      return fmt(t.cashAdded, {
        direction: t.cashDirections[entry.direction],
        amount: money(entry.amount),
        currency: entry.currency,
      });
    });
  }

  return (
    <form onSubmit={submit} aria-label={t.cashTitle} noValidate className="space-y-2 px-3 py-3">
      <div className="grid grid-cols-2 items-end gap-2 sm:grid-cols-4">
        <label className={LABEL}>
          {t.side}
          <select value={direction} onChange={(e) => setDirection(e.target.value as "in" | "out")} className={FIELD}>
            <option value="in">{t.cashDirections.in}</option>
            <option value="out">{t.cashDirections.out}</option>
          </select>
        </label>
        <label className={LABEL}>
          {t.cashAmount}
          <input
            type="number"
            inputMode="decimal"
            min="0"
            step="any"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            className={FIELD}
          />
        </label>
        <label className={LABEL}>
          {t.colCurrency}
          <input
            type="text"
            value={currency}
            maxLength={8}
            placeholder={fmt(t.cashCurrencyHint, { currency: baseCurrency })}
            onChange={(e) => setCurrency(e.target.value)}
            className={FIELD}
          />
        </label>
        <label className={LABEL}>
          {t.eventDate}
          <input type="date" value={date} onChange={(e) => setDate(e.target.value)} className={FIELD} />
        </label>
      </div>
      <div className="flex items-end gap-2">
        <label className={`${LABEL} flex-1`}>
          {t.note}
          <input type="text" value={note} maxLength={255} onChange={(e) => setNote(e.target.value)} className={FIELD} />
        </label>
        <button type="submit" disabled={busy} className={PRIMARY_BUTTON}>
          {busy ? t.adding : t.addRecord}
        </button>
      </div>
      <StatusLine status={status} />
    </form>
  );
}

export function CorporateActionForm({ t, accountId, today }: { t: PortfolioTexts; accountId: number; today: string }) {
  const [type, setType] = useState<TCorporateAction["action_type"]>("cash_dividend");
  const [symbol, setSymbol] = useState("");
  const [value, setValue] = useState("");
  const [date, setDate] = useState(today);
  const [note, setNote] = useState("");
  const { busy, status, setStatus, run } = useSubmit();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const number = Number(value);
    const valid = type === "cash_dividend" ? value.trim() !== "" && number >= 0 : number > 0;
    if (!symbol.trim() || !valid || !/^\d{4}-\d{2}-\d{2}$/.test(date))
      return setStatus({ error: true, text: t.actionInvalid });
    await run(t, async () => {
      const action = await requestJson<TCorporateAction>("POST", "/api/v1/portfolio/corporate-actions", {
        account_id: accountId,
        symbol: symbol.trim(),
        effective_date: date,
        action_type: type,
        ...(type === "cash_dividend" ? { cash_dividend_per_share: number } : { split_ratio: number }),
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      setValue("");
      setNote("");
      return fmt(t.actionAdded, {
        type: t.actionTypes[action.action_type],
        code: action.symbol,
        date: action.effective_date,
      });
    });
  }

  return (
    <form onSubmit={submit} aria-label={t.actionsTitle} noValidate className="space-y-2 px-3 py-3">
      <div className="grid grid-cols-2 items-end gap-2 sm:grid-cols-4">
        <label className={LABEL}>
          {t.colType}
          <select
            value={type}
            onChange={(e) => setType(e.target.value as TCorporateAction["action_type"])}
            className={FIELD}
          >
            <option value="cash_dividend">{t.actionTypes.cash_dividend}</option>
            <option value="split_adjustment">{t.actionTypes.split_adjustment}</option>
          </select>
        </label>
        <label className={LABEL}>
          {t.actionSymbol}
          <input
            type="text"
            value={symbol}
            maxLength={16}
            onChange={(e) => setSymbol(e.target.value)}
            className={FIELD}
          />
        </label>
        <label className={LABEL}>
          {type === "cash_dividend" ? t.dividendPerShare : t.splitRatio}
          <input
            type="number"
            inputMode="decimal"
            min="0"
            step="any"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            className={FIELD}
          />
        </label>
        <label className={LABEL}>
          {t.effectiveDate}
          <input type="date" value={date} onChange={(e) => setDate(e.target.value)} className={FIELD} />
        </label>
      </div>
      <div className="flex items-end gap-2">
        <label className={`${LABEL} flex-1`}>
          {t.note}
          <input type="text" value={note} maxLength={255} onChange={(e) => setNote(e.target.value)} className={FIELD} />
        </label>
        <button type="submit" disabled={busy} className={PRIMARY_BUTTON}>
          {busy ? t.adding : t.addRecord}
        </button>
      </div>
      <StatusLine status={status} />
    </form>
  );
}
