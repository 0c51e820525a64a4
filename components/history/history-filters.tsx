import Link from "next/link";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { reportTypeLabel } from "./format";

type Texts = Dictionary["historyUi"];

export interface HistoryFilterValues {
  stock_code?: string;
  report_type?: string;
  start_date?: string;
  end_date?: string;
}

export const FILTER_REPORT_TYPES = ["brief", "simple", "detailed", "full", "market_review"] as const;

const FIELD =
  "h-8 w-full min-w-0 rounded-md border border-line bg-surface px-2 text-sm focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-accent";
const LABEL = "flex min-w-0 flex-col gap-1 text-xs text-muted";

// The filter bar is a plain GET form: submitting it changes the URL, and the server component re-reads the list.
export function HistoryFilters({ t, values }: { t: Texts; values: HistoryFilterValues }) {
  const active = Object.values(values).some(Boolean);
  return (
    <form
      method="get"
      action="/history"
      role="search"
      aria-label={t.filtersLabel}
      className="grid grid-cols-2 items-end gap-2 sm:grid-cols-[minmax(8rem,1fr)_minmax(8rem,10rem)_10rem_10rem_auto]"
    >
      <label className={`${LABEL} col-span-2 sm:col-span-1`}>
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
      <label className={`${LABEL} col-span-2 sm:col-span-1`}>
        {t.reportType}
        <select name="report_type" defaultValue={values.report_type ?? ""} className={FIELD}>
          <option value="">{t.allTypes}</option>
          {FILTER_REPORT_TYPES.map((type) => (
            <option key={type} value={type}>
              {reportTypeLabel(t.reportTypes, type)}
            </option>
          ))}
          {values.report_type && !(FILTER_REPORT_TYPES as readonly string[]).includes(values.report_type) ? (
            <option value={values.report_type}>{values.report_type}</option>
          ) : null}
        </select>
      </label>
      <label className={LABEL}>
        {t.startDate}
        <input name="start_date" type="date" defaultValue={values.start_date ?? ""} className={FIELD} />
      </label>
      <label className={LABEL}>
        {t.endDate}
        <input name="end_date" type="date" defaultValue={values.end_date ?? ""} className={FIELD} />
      </label>
      <div className="col-span-2 flex items-center gap-2 sm:col-span-1">
        <button
          type="submit"
          className="inline-flex h-8 items-center rounded-md bg-accent px-3 text-sm font-semibold text-accent-fg hover:bg-accent/90 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent"
        >
          {t.apply}
        </button>
        {active ? (
          <Link href="/history" className="text-sm whitespace-nowrap text-accent underline-offset-2 hover:underline">
            {t.reset}
          </Link>
        ) : null}
      </div>
    </form>
  );
}
