"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { fmt } from "@/components/settings/format";
import { messageOf, requestJson } from "@/components/ui/request";
import { BUTTON, FIELD, LABEL, marketText, runHref, type ScreeningTexts } from "./format";

const MARKETS = ["cn", "hk", "us"] as const;
const MAX_RESULTS = [10, 20, 50, 100] as const;

// The run form: strategy, market and how many candidates. A run is synchronous (a few seconds over the local
// universe); its stored answer then opens as the page's run (?run=…), rendered on the server.
export function ScreenForm({
  t,
  strategies,
  initial,
  language,
  disabled,
}: {
  t: ScreeningTexts;
  strategies: { id: string; name: string }[];
  initial: { strategy: string; market: string };
  language: "zh" | "en";
  disabled: boolean;
}) {
  const router = useRouter();
  const [strategy, setStrategy] = useState(initial.strategy);
  const [market, setMarket] = useState(initial.market);
  const [max, setMax] = useState<number>(20);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await requestJson<{ run_id: string }>("POST", "/api/v1/screening/screen", {
        strategy,
        market,
        max_results: max,
        language,
      });
      router.push(runHref(answer.run_id));
    } catch (failure) {
      setError(fmt(t.runFailed, { message: messageOf(failure) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={run}
      aria-label={t.formTitle}
      className="grid grid-cols-2 items-end gap-2 sm:grid-cols-[minmax(12rem,1fr)_9rem_7rem_auto]"
    >
      <label className={`${LABEL} col-span-2 sm:col-span-1`}>
        {t.strategyLabel}
        <select className={FIELD} value={strategy} onChange={(e) => setStrategy(e.target.value)} name="strategy">
          {strategies.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <label className={LABEL}>
        {t.marketLabel}
        <select className={FIELD} value={market} onChange={(e) => setMarket(e.target.value)} name="market">
          {MARKETS.map((m) => (
            <option key={m} value={m}>
              {marketText(t, m)}
            </option>
          ))}
        </select>
      </label>
      <label className={LABEL}>
        {t.maxLabel}
        <select className={FIELD} value={max} onChange={(e) => setMax(Number(e.target.value))} name="max_results">
          {MAX_RESULTS.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <button
        type="submit"
        className={`${BUTTON} col-span-2 sm:col-span-1`}
        disabled={busy || disabled}
        aria-busy={busy}
      >
        {busy ? t.running : t.run}
      </button>
      {error ? (
        <p role="alert" className="col-span-full text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </form>
  );
}
