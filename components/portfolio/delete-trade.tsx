"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { SMALL_BUTTON } from "@/components/alerts/format";
import { messageOf, requestJson } from "@/components/ui/request";
import { fmt } from "@/components/settings/format";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { TTrade } from "@/lib/portfolio/schemas";
import { price, quantity, type PortfolioTexts } from "./format";

// DELETE of a portfolio record (a trade, a cash entry, a corporate action) after a confirmation; a refusal (a later
// sale would exceed what remains) stays in the dialog with the API's message.
export function DeleteRecordButton({
  t,
  url,
  aria,
  title,
  body,
}: {
  t: PortfolioTexts;
  url: string;
  aria: string;
  title: string;
  body: string;
}) {
  const router = useRouter();
  const [, startTransition] = useTransition();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await requestJson("DELETE", url);
      setOpen(false);
      startTransition(() => router.refresh());
    } catch (failure) {
      setError(fmt(t.requestFailed, { message: messageOf(failure) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button
        type="button"
        aria-label={aria}
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
        className={SMALL_BUTTON}
      >
        {t.deleteTrade}
      </button>
      <ConfirmDialog
        open={open}
        title={title}
        confirmLabel={t.confirmDelete}
        cancelLabel={t.cancel}
        busyLabel={t.deleting}
        busy={busy}
        error={error}
        onConfirm={confirm}
        onCancel={() => setOpen(false)}
      >
        {body}
      </ConfirmDialog>
    </>
  );
}

export function DeleteTradeButton({ t, trade }: { t: PortfolioTexts; trade: TTrade }) {
  return (
    <DeleteRecordButton
      t={t}
      url={`/api/v1/portfolio/trades/${trade.id}`}
      aria={fmt(t.deleteTradeAria, { id: trade.id })}
      title={t.deleteTradeTitle}
      body={fmt(t.deleteTradeBody, {
        date: trade.trade_date,
        side: t.sides[trade.side],
        code: trade.symbol,
        quantity: quantity(trade.quantity),
        price: price(trade.price),
      })}
    />
  );
}
