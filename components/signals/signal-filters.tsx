import Link from "next/link";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { SIGNAL_STATUSES, ZSignalAction } from "@/lib/signals/schemas";
import { labelOf } from "./format";

type Texts = Dictionary["signalsUi"];

export interface SignalFilterValues {
  market?: string;
  stock_code?: string;
  action?: string;
  status?: string;
  created_from?: string;
  created_to?: string;
  holding_only?: boolean;
}

const MARKETS = ["cn", "hk", "us"] as const;
const FIELD =
  "h-8 w-full min-w-0 rounded-md border border-line bg-surface px-2 text-sm focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-accent";
const LABEL = "flex min-w-0 flex-col gap-1 text-xs text-muted";

// A plain GET form, like the History filters: submitting it rewrites the URL (page and open signal reset), and
// the server component lists again.
export function SignalFilters({ t, values }: { t: Texts; values: SignalFilterValues }) {
  const active = Object.values(values).some(Boolean);
  const select = (
    name: string,
    label: string,
    all: string,
    options: readonly string[],
    labels: Readonly<Record<string, string>>,
    value?: string,
  ) => (
    <label className={LABEL}>
      {label}
      <select name={name} defaultValue={value ?? ""} className={FIELD}>
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {labelOf(labels, o)}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <form
      method="get"
      action="/signals"
      role="search"
      aria-label={t.filtersLabel}
      className="grid grid-cols-2 items-end gap-2 sm:grid-cols-3 lg:grid-cols-[7rem_minmax(7rem,1fr)_7rem_7rem_9.5rem_9.5rem_auto_auto]"
    >
      {select("market", t.market, t.allMarkets, MARKETS, t.markets, values.market)}
      <label className={LABEL}>
        {t.stockCode}
        <input
          name="stock_code"
          type="search"
          defaultValue={values.stock_code ?? ""}
          placeholder={t.stockCodePlaceholder}
          autoComplete="off"
          className={FIELD}
        />
      </label>
      {select("action", t.action, t.allActions, ZSignalAction.options, t.actions, values.action)}
      {select("status", t.status, t.allStatuses, SIGNAL_STATUSES, t.statuses, values.status)}
      <label className={LABEL}>
        {t.createdFrom}
        <input name="created_from" type="date" defaultValue={values.created_from ?? ""} className={FIELD} />
      </label>
      <label className={LABEL}>
        {t.createdTo}
        <input name="created_to" type="date" defaultValue={values.created_to ?? ""} className={FIELD} />
      </label>
      <label className="inline-flex h-8 items-center gap-2 text-sm whitespace-nowrap">
        <input
          name="holding_only"
          type="checkbox"
          value="true"
          defaultChecked={values.holding_only ?? false}
          className="size-4 accent-(--dsa-accent)"
        />
        {t.holdingOnly}
      </label>
      <div className="flex items-center gap-2">
        <button
          type="submit"
          className="inline-flex h-8 items-center rounded-md bg-accent px-3 text-sm font-semibold text-accent-fg hover:bg-accent/90 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent"
        >
          {t.apply}
        </button>
        {active ? (
          <Link href="/signals" className="text-sm whitespace-nowrap text-accent underline-offset-2 hover:underline">
            {t.reset}
          </Link>
        ) : null}
      </div>
    </form>
  );
}
