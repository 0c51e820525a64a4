"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { ERROR_TEXT, FIELD, LABEL, PRIMARY_BUTTON, SMALL_BUTTON } from "@/components/alerts/format";
import { messageOf, requestJson } from "@/components/ui/request";
import { fmt } from "@/components/settings/format";
import type { TAccount } from "@/lib/portfolio/schemas";
import type { PortfolioTexts } from "./format";

const MARKETS = ["cn", "hk", "us"] as const;
const CURRENCIES = ["CNY", "HKD", "USD"] as const;
const DEFAULT_CURRENCY: Record<(typeof MARKETS)[number], (typeof CURRENCIES)[number]> = {
  cn: "CNY",
  hk: "HKD",
  us: "USD",
};

// POST /api/v1/portfolio/accounts (docs/api.md §12.1.2: name, broker, market, base_currency), then opens the new account.
export function NewAccountForm({ t }: { t: PortfolioTexts }) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const [name, setName] = useState("");
  const [broker, setBroker] = useState("");
  const [market, setMarket] = useState<(typeof MARKETS)[number]>("cn");
  const [currency, setCurrency] = useState<(typeof CURRENCIES)[number]>("CNY");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!name.trim()) return setError(t.nameRequired);
    setBusy(true);
    try {
      const account = await requestJson<TAccount>("POST", "/api/v1/portfolio/accounts", {
        name: name.trim(),
        market,
        base_currency: currency,
        ...(broker.trim() ? { broker: broker.trim() } : {}),
      });
      setName("");
      setBroker("");
      startTransition(() => router.push(`/portfolio?account=${account.id}`));
    } catch (failure) {
      setError(fmt(t.requestFailed, { message: messageOf(failure) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      aria-label={t.newAccount}
      noValidate
      className="grid grid-cols-2 items-end gap-2 sm:grid-cols-[minmax(10rem,1fr)_8rem_8rem_7rem_auto]"
    >
      <label className={`${LABEL} col-span-2 sm:col-span-1`}>
        {t.accountName}
        <input type="text" value={name} maxLength={64} onChange={(e) => setName(e.target.value)} className={FIELD} />
      </label>
      <label className={LABEL}>
        {t.accountBroker}
        <input
          type="text"
          value={broker}
          maxLength={64}
          onChange={(e) => setBroker(e.target.value)}
          className={FIELD}
        />
      </label>
      <label className={LABEL}>
        {t.accountMarket}
        <select
          value={market}
          onChange={(e) => {
            const next = e.target.value as (typeof MARKETS)[number];
            setMarket(next);
            setCurrency(DEFAULT_CURRENCY[next]);
          }}
          className={FIELD}
        >
          {MARKETS.map((m) => (
            <option key={m} value={m}>
              {t.markets[m]}
            </option>
          ))}
        </select>
      </label>
      <label className={LABEL}>
        {t.accountCurrency}
        <select
          value={currency}
          onChange={(e) => setCurrency(e.target.value as (typeof CURRENCIES)[number])}
          className={FIELD}
        >
          {CURRENCIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={busy} className={`${PRIMARY_BUTTON} col-span-2 sm:col-span-1`}>
        {busy ? t.creating : t.createAccount}
      </button>
      {error ? (
        <p role="alert" className={`${ERROR_TEXT} col-span-full`}>
          {error}
        </p>
      ) : null}
    </form>
  );
}

// PUT /api/v1/portfolio/accounts/{id} {is_active}: a deactivated account keeps its data but leaves the all-accounts report.
export function AccountActiveToggle({
  t,
  account,
}: {
  t: PortfolioTexts;
  account: Pick<TAccount, "id" | "is_active">;
}) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  async function toggle() {
    setBusy(true);
    setMessage(null);
    try {
      const updated = await requestJson<TAccount>("PUT", `/api/v1/portfolio/accounts/${account.id}`, {
        is_active: !account.is_active,
      });
      setMessage({ error: false, text: updated.is_active ? t.activated : t.deactivated });
      startTransition(() => router.refresh());
    } catch (failure) {
      setMessage({ error: true, text: fmt(t.requestFailed, { message: messageOf(failure) }) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      <button type="button" onClick={toggle} disabled={busy} className={SMALL_BUTTON}>
        {account.is_active ? t.deactivate : t.activate}
      </button>
      {message ? (
        <p role={message.error ? "alert" : "status"} className={message.error ? ERROR_TEXT : "text-xs text-muted"}>
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
