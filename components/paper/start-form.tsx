"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { BUTTON, FIELD, LABEL } from "@/components/screening/format";
import { fmt } from "@/components/settings/format";
import { messageOf, requestJson } from "@/components/ui/request";
import { accountHref, type PaperTexts } from "./format";

const MARKETS = ["cn", "hk", "us"] as const;

// Starts a paper account: it trades from the next session on, following the calls made from now.
export function StartForm({ t, strategies }: { t: PaperTexts; strategies: { id: string; name: string }[] }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [follow, setFollow] = useState<"watchlist" | "codes" | "screening">("watchlist");

  async function start(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const codes = String(form.get("codes") ?? "")
        .split(/[,，\s]+/)
        .filter(Boolean);
      const made = await requestJson<{ id: number }>("POST", "/api/v1/paper/accounts", {
        name: String(form.get("name") ?? ""),
        market: String(form.get("market")),
        starting_cash: Number(form.get("starting_cash")),
        follow:
          follow === "codes"
            ? { kind: "codes", codes }
            : follow === "screening"
              ? { kind: "screening", strategy: String(form.get("strategy")) }
              : { kind: "watchlist" },
        sizing: { kind: "equal_weight", max_positions: Number(form.get("max_positions")) },
      });
      router.push(accountHref(made.id));
      router.refresh();
    } catch (failure) {
      setError(fmt(t.startFailed, { message: messageOf(failure) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={start}
      aria-label={t.startTitle}
      data-testid="paper-start"
      className="grid grid-cols-2 items-end gap-2 sm:grid-cols-3 lg:grid-cols-6"
    >
      <label className={LABEL}>
        {t.nameLabel}
        <input className={FIELD} name="name" required maxLength={80} />
      </label>
      <label className={LABEL}>
        {t.marketLabel}
        <select className={FIELD} name="market" defaultValue="cn">
          {MARKETS.map((m) => (
            <option key={m} value={m}>
              {t.markets[m]}
            </option>
          ))}
        </select>
      </label>
      <label className={LABEL}>
        {t.cashLabel}
        <input
          className={FIELD}
          name="starting_cash"
          type="number"
          min={1}
          step="any"
          defaultValue={1_000_000}
          required
        />
      </label>
      <label className={LABEL}>
        {t.followLabel}
        <select className={FIELD} value={follow} onChange={(e) => setFollow(e.target.value as typeof follow)}>
          <option value="watchlist">{t.followWatchlist}</option>
          <option value="codes">{t.followCodes}</option>
          <option value="screening">{t.followScreening}</option>
        </select>
      </label>
      {follow === "screening" ? (
        <label className={LABEL}>
          {t.strategyLabel}
          <select className={FIELD} name="strategy">
            {strategies.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {follow === "codes" ? (
        <label className={LABEL}>
          {t.codesLabel}
          <input className={FIELD} name="codes" required placeholder="600519, 000001" />
        </label>
      ) : null}
      <label className={LABEL}>
        {t.positionsLabel}
        <input className={FIELD} name="max_positions" type="number" min={1} max={50} defaultValue={10} required />
      </label>
      <button type="submit" className={BUTTON} disabled={busy} aria-busy={busy}>
        {busy ? t.starting : t.start}
      </button>
      {error ? (
        <p role="alert" className="col-span-full text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </form>
  );
}
