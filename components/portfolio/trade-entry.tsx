"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { ERROR_TEXT, FIELD, LABEL, PRIMARY_BUTTON } from "@/components/alerts/format";
import { messageOf, requestJson } from "@/components/ui/request";
import { StockSearchInput, type StockSuggestion } from "@/components/analysis/stock-search-input";
import { fmt } from "@/components/settings/format";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { TTrade } from "@/lib/portfolio/schemas";
import { price as formatPrice, quantity as formatQuantity, type PortfolioTexts } from "./format";

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

// One buy or sell (POST /api/v1/portfolio/trades); positions are recomputed by the API in the same transaction.
export function TradeForm({
  t,
  search,
  locale,
  accountId,
  today,
}: {
  t: PortfolioTexts;
  search: Dictionary["analyzeUi"];
  locale: string;
  accountId: number;
  today: string;
}) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const [side, setSide] = useState<"buy" | "sell">("buy");
  const [text, setText] = useState("");
  const [picked, setPicked] = useState<StockSuggestion | null>(null);
  const [qty, setQty] = useState("");
  const [unitPrice, setUnitPrice] = useState("");
  const [fee, setFee] = useState("");
  const [tax, setTax] = useState("");
  const [date, setDate] = useState(today);
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setStatus(null);
    const code = picked?.display_code ?? text.trim();
    const q = Number(qty);
    const p = Number(unitPrice);
    const f = fee.trim() ? Number(fee) : 0;
    const x = tax.trim() ? Number(tax) : 0;
    if (!code || !(q > 0) || !(p > 0) || !(f >= 0) || !(x >= 0) || !/^\d{4}-\d{2}-\d{2}$/.test(date))
      return setStatus({ error: true, text: t.tradeInvalid });
    setBusy(true);
    try {
      const trade = await requestJson<TTrade>("POST", "/api/v1/portfolio/trades", {
        account_id: accountId,
        side,
        symbol: code,
        quantity: q,
        price: p,
        fee: f,
        tax: x,
        trade_date: date,
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      setStatus({
        error: false,
        text: fmt(t.tradeAdded, {
          side: t.sides[trade.side],
          code: trade.symbol,
          quantity: formatQuantity(trade.quantity),
          price: formatPrice(trade.price),
        }),
      });
      setQty("");
      setUnitPrice("");
      setFee("");
      setTax("");
      setNote("");
      startTransition(() => router.refresh());
    } catch (failure) {
      setStatus({ error: true, text: fmt(t.requestFailed, { message: messageOf(failure) }) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} aria-label={t.tradeTitle} noValidate className="space-y-2 px-3 py-3">
      <div className="grid grid-cols-2 items-end gap-2 sm:grid-cols-[6rem_minmax(0,1fr)]">
        <label className={LABEL}>
          {t.side}
          <select value={side} onChange={(e) => setSide(e.target.value as "buy" | "sell")} className={`${FIELD} h-9`}>
            <option value="buy">{t.sides.buy}</option>
            <option value="sell">{t.sides.sell}</option>
          </select>
        </label>
        <div className="min-w-0">
          <StockSearchInput
            t={{ ...search, codeLabel: t.codeLabel }}
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
      </div>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-5">
        <label className={LABEL}>
          {t.quantity}
          <input
            type="number"
            inputMode="decimal"
            min="0"
            step="any"
            value={qty}
            onChange={(e) => setQty(e.target.value)}
            className={FIELD}
          />
        </label>
        <label className={LABEL}>
          {t.price}
          <input
            type="number"
            inputMode="decimal"
            min="0"
            step="any"
            value={unitPrice}
            onChange={(e) => setUnitPrice(e.target.value)}
            className={FIELD}
          />
        </label>
        <label className={LABEL}>
          {t.fee}
          <input
            type="number"
            inputMode="decimal"
            min="0"
            step="any"
            value={fee}
            placeholder="0"
            onChange={(e) => setFee(e.target.value)}
            className={FIELD}
          />
        </label>
        <label className={LABEL}>
          {t.tax}
          <input
            type="number"
            inputMode="decimal"
            min="0"
            step="any"
            value={tax}
            placeholder="0"
            onChange={(e) => setTax(e.target.value)}
            className={FIELD}
          />
        </label>
        <label className={LABEL}>
          {t.date}
          <input type="date" value={date} max={today} onChange={(e) => setDate(e.target.value)} className={FIELD} />
        </label>
      </div>
      <div className="flex items-end gap-2">
        <label className={`${LABEL} flex-1`}>
          {t.note}
          <input type="text" value={note} maxLength={255} onChange={(e) => setNote(e.target.value)} className={FIELD} />
        </label>
        <button type="submit" disabled={busy} className={PRIMARY_BUTTON}>
          {busy ? t.adding : t.addTrade}
        </button>
      </div>
      <StatusLine status={status} />
    </form>
  );
}
