import type { ReactNode } from "react";
import { fmt } from "@/components/settings/format";
import { ZonedTime } from "@/components/shell/time-zone";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { Locale } from "@/lib/i18n/config";
import type { TUsagePeriod } from "@/lib/usage/period";
import type {
  TUsageDailyResponse,
  TUsageDashboardResponse,
  TUsageModelBreakdown,
  TUsageRecentCall,
} from "@/lib/usage/schemas";

// The Usage page body. Server-rendered from the same functions the usage API serves, so the page
// and GET /api/v1/usage/dashboard show the same numbers; the period tabs are plain links (?period=).

type Texts = Dictionary["usageUi"];

export const USAGE_DAILY_DAYS_SHOWN = 30;

function numberFormat(locale: Locale): Intl.NumberFormat {
  return new Intl.NumberFormat(locale === "zh-CN" ? "zh-CN" : "en-US");
}

function SectionTitle({ children, aside }: { children: ReactNode; aside?: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-2 border-b border-line px-3 py-2">
      <h2 className="text-sm font-semibold">{children}</h2>
      {aside ? <div className="min-w-0 truncate text-xs text-muted">{aside}</div> : null}
    </div>
  );
}

export function PeriodTabs({ t, current }: { t: Texts; current: TUsagePeriod }) {
  const periods: TUsagePeriod[] = ["today", "month", "all"];
  return (
    <nav aria-label={t.periodsLabel} className="inline-flex shrink-0 rounded-md border border-line bg-subtle p-0.5">
      {periods.map((p) => (
        <a
          key={p}
          href={`/usage?period=${p}`}
          aria-current={p === current ? "page" : undefined}
          className={cx(
            "inline-flex h-7 items-center rounded px-3 text-sm font-medium",
            "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent",
            p === current ? "bg-surface text-fg shadow-sm dark:bg-line" : "text-muted hover:text-fg",
          )}
        >
          {t.periods[p]}
        </a>
      ))}
    </nav>
  );
}

function Totals({ t, data, nf }: { t: Texts; data: TUsageDashboardResponse; nf: Intl.NumberFormat }) {
  const items: [string, string, number][] = [
    ["calls", t.calls, data.total_calls],
    ["total", t.totalTokens, data.total_tokens],
    ["prompt", t.promptTokens, data.total_prompt_tokens],
    ["completion", t.completionTokens, data.total_completion_tokens],
  ];
  return (
    <Panel>
      <SectionTitle>{t.totalsTitle}</SectionTitle>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 px-3 py-3 sm:grid-cols-4">
        {items.map(([key, label, value]) => (
          <div key={key} className="min-w-0" data-testid={`usage-total-${key}`}>
            <dt className="text-xs text-muted">{label}</dt>
            <dd
              className={cx("mt-0.5 font-semibold tabular-nums", key === "total" ? "text-2xl text-accent" : "text-xl")}
            >
              {nf.format(value)}
            </dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}

function DailyChart({ t, daily, nf }: { t: Texts; daily: TUsageDailyResponse; nf: Intl.NumberFormat }) {
  const days = daily.days;
  const count = days.length;
  const total = days.reduce((s, d) => s + d.total_tokens, 0);
  const max = Math.max(0, ...days.map((d) => d.total_tokens));
  const label = (date: string) => date.slice(5);
  return (
    <Panel>
      <SectionTitle aside={daily.time_zone}>{fmt(t.dailyTitle, { days: count })}</SectionTitle>
      {total === 0 ? (
        <p className="px-3 py-6 text-center text-sm text-muted">{fmt(t.dailyEmpty, { days: count })}</p>
      ) : (
        <div className="px-3 pt-3 pb-2">
          <div className="flex items-baseline justify-between text-xs text-muted tabular-nums">
            <span>{nf.format(max)}</span>
            <span data-testid="usage-daily-total">
              {t.totalTokens} {nf.format(total)}
            </span>
          </div>
          <div
            role="img"
            aria-label={fmt(t.dailyAria, { days: count, total: nf.format(total) })}
            data-testid="usage-daily-chart"
            className="mt-1 flex h-40 items-end gap-px border-b border-line sm:gap-0.5"
          >
            {days.map((d) => {
              const pct = max > 0 ? (d.total_tokens / max) * 100 : 0;
              return (
                <div
                  key={d.date}
                  title={fmt(t.dailyBar, { date: d.date, tokens: nf.format(d.total_tokens), calls: d.calls })}
                  data-date={d.date}
                  data-tokens={d.total_tokens}
                  className="flex h-full min-w-0 flex-1 items-end"
                >
                  <div
                    className={cx("w-full rounded-t-sm", d.total_tokens > 0 ? "bg-accent" : "bg-transparent")}
                    style={{ height: d.total_tokens > 0 ? `max(2px, ${pct.toFixed(2)}%)` : 0 }}
                  />
                </div>
              );
            })}
          </div>
          <div className="mt-1 flex justify-between text-xs text-muted tabular-nums">
            <span>{label(days[0]?.date ?? "")}</span>
            <span className="hidden sm:inline">{label(days[Math.floor(count / 2)]?.date ?? "")}</span>
            <span>{label(days.at(-1)?.date ?? "")}</span>
          </div>
          <ul className="sr-only">
            {days
              .filter((d) => d.calls > 0)
              .map((d) => (
                <li key={d.date}>
                  {fmt(t.dailyBar, { date: d.date, tokens: nf.format(d.total_tokens), calls: d.calls })}
                </li>
              ))}
          </ul>
        </div>
      )}
    </Panel>
  );
}

function BarList({
  title,
  rows,
  nf,
}: {
  title: string;
  rows: { key: string; label: string; tokens: number; detail: string }[];
  nf: Intl.NumberFormat;
}) {
  const max = Math.max(1, ...rows.map((r) => r.tokens));
  return (
    <Panel>
      <SectionTitle>{title}</SectionTitle>
      <ul className="divide-y divide-line">
        {rows.map((r) => (
          <li key={r.key} className="px-3 py-2" data-testid="usage-bar-row">
            <div className="flex items-baseline justify-between gap-3 text-sm">
              <span className="min-w-0 truncate font-medium" title={r.label}>
                {r.label}
              </span>
              <span className="shrink-0 tabular-nums">{nf.format(r.tokens)}</span>
            </div>
            <div className="mt-1 h-1.5 rounded-full bg-subtle" aria-hidden="true">
              <div
                className="h-full rounded-full bg-accent"
                style={{ width: `${((r.tokens / max) * 100).toFixed(2)}%` }}
              />
            </div>
            <p className="mt-1 text-xs text-muted tabular-nums">{r.detail}</p>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

function modelRows(t: Texts, models: TUsageModelBreakdown[], nf: Intl.NumberFormat) {
  return models.map((m) => ({
    key: m.model,
    label: m.model,
    tokens: m.total_tokens,
    detail: `${t.calls} ${nf.format(m.calls)} · ${t.promptTokens} ${nf.format(m.prompt_tokens)} · ${t.completionTokens} ${nf.format(m.completion_tokens)} · ${fmt(t.modelMax, { tokens: nf.format(m.max_total_tokens) })}`,
  }));
}

function callTypeLabel(t: Texts, type: string): string {
  return (t.callTypes as Record<string, string>)[type] ?? type;
}

// Call times in the display zone with its label; the periods' days stay in the service zone.
function RecentCalls({ t, calls, nf }: { t: Texts; calls: TUsageRecentCall[]; nf: Intl.NumberFormat }) {
  const th = "px-3 py-2 text-left text-xs font-medium text-muted whitespace-nowrap";
  const num = "px-3 py-2 text-right tabular-nums whitespace-nowrap";
  return (
    <Panel>
      <SectionTitle aside={fmt(t.recentCount, { count: calls.length })}>{t.recentTitle}</SectionTitle>
      <div className="overflow-x-auto">
        <table className="w-full min-w-[40rem] text-sm" data-testid="usage-recent-calls">
          <thead className="border-b border-line bg-subtle">
            <tr>
              <th scope="col" className={th}>
                {t.colTime}
              </th>
              <th scope="col" className={th}>
                {t.colType}
              </th>
              <th scope="col" className={th}>
                {t.colModel}
              </th>
              <th scope="col" className={th}>
                {t.colStock}
              </th>
              <th scope="col" className={cx(th, "text-right")}>
                {t.colPrompt}
              </th>
              <th scope="col" className={cx(th, "text-right")}>
                {t.colCompletion}
              </th>
              <th scope="col" className={cx(th, "text-right")}>
                {t.colTotal}
              </th>
              <th scope="col" className={th}>
                {t.colStatus}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {calls.map((c) => (
              <tr key={c.id}>
                <td className="px-3 py-2 whitespace-nowrap tabular-nums">
                  <time dateTime={c.called_at}>
                    <ZonedTime value={c.called_at} style="short" />
                  </time>
                </td>
                <td className="px-3 py-2 whitespace-nowrap">{callTypeLabel(t, c.call_type)}</td>
                <td className="max-w-[14rem] truncate px-3 py-2" title={c.model}>
                  {c.model}
                </td>
                <td className="px-3 py-2 whitespace-nowrap tabular-nums">{c.stock_code ?? "—"}</td>
                <td className={num}>{nf.format(c.prompt_tokens)}</td>
                <td className={num}>{nf.format(c.completion_tokens)}</td>
                <td className={cx(num, "font-medium")}>{nf.format(c.total_tokens)}</td>
                <td
                  className={cx(
                    "px-3 py-2 whitespace-nowrap",
                    c.success ? "text-muted" : "font-medium text-red-600 dark:text-red-400",
                  )}
                >
                  {c.success ? t.statusOk : t.statusFailed}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}

function EmptyState({ t }: { t: Texts }) {
  return (
    <div className="rounded-md border border-dashed border-line px-4 py-6 text-sm" data-testid="usage-empty">
      <p className="font-medium">{t.emptyTitle}</p>
      <p className="mt-1 max-w-2xl leading-6 text-muted">{t.emptyBody}</p>
      <a href="/settings" className="mt-2 inline-block text-accent underline-offset-2 hover:underline">
        {t.emptyLink}
      </a>
    </div>
  );
}

export function UsageView({
  t,
  locale,
  data,
  daily,
}: {
  t: Texts;
  locale: Locale;
  data: TUsageDashboardResponse;
  daily: TUsageDailyResponse;
}) {
  const nf = numberFormat(locale);
  const range = data.from_date
    ? fmt(t.range, { from: data.from_date, to: data.to_date, zone: data.time_zone })
    : fmt(t.rangeAllEmpty, { to: data.to_date, zone: data.time_zone });
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <PeriodTabs t={t} current={data.period} />
        <p className="text-xs text-muted tabular-nums" data-testid="usage-range">
          {range}
        </p>
      </div>
      <Totals t={t} data={data} nf={nf} />
      {data.total_calls === 0 ? <EmptyState t={t} /> : null}
      <DailyChart t={t} daily={daily} nf={nf} />
      {data.total_calls > 0 ? (
        <>
          <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
            <BarList title={t.modelsTitle} rows={modelRows(t, data.by_model, nf)} nf={nf} />
            <BarList
              title={t.callTypesTitle}
              rows={data.by_call_type.map((c) => ({
                key: c.call_type,
                label: callTypeLabel(t, c.call_type),
                tokens: c.total_tokens,
                detail: `${t.calls} ${nf.format(c.calls)} · ${t.promptTokens} ${nf.format(c.prompt_tokens)} · ${t.completionTokens} ${nf.format(c.completion_tokens)}`,
              }))}
              nf={nf}
            />
          </div>
          <RecentCalls t={t} calls={data.recent_calls} nf={nf} />
        </>
      ) : null}
    </div>
  );
}
