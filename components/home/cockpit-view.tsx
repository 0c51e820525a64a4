import Link from "next/link";
import { triggerReason } from "@/components/alerts/format";
import { actionTone, directionText } from "@/components/analysis/tone";
import { formatPrice, formatSignedPct } from "@/components/history/format";
import { formatInstant } from "@/lib/i18n/time";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { Cockpit } from "@/lib/home/cockpit";
import { WatchlistPanel, type WatchItem } from "./watchlist-panel";

// The home page below the analyze box: the indices of the markets in use, the watchlist, open
// decision signals and today's alert triggers. A server component: every figure comes from the one server read
// (lib/home/cockpit.ts); only the watchlist's buttons run in the browser.

type Texts = Dictionary["homeUi"];

function direction(change: number | null): "up" | "down" | "flat" {
  return change === null || change === 0 ? "flat" : change > 0 ? "up" : "down";
}

/** "3 分钟前" / "2 h ago": the age of a report at render time (server side, so no hydration drift). */
export function ageText(iso: string, at: Date, t: Texts): string {
  const minutes = Math.max(0, Math.round((at.getTime() - new Date(iso).getTime()) / 60_000));
  if (minutes < 1) return t.ageNow;
  if (minutes < 60) return fmt(t.ageMinutes, { n: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 48) return fmt(t.ageHours, { n: hours });
  return fmt(t.ageDays, { n: Math.round(hours / 24) });
}

function IndicesStrip({
  cockpit,
  t,
  locale,
  timeZone,
}: {
  cockpit: Cockpit;
  t: Texts;
  locale: string;
  timeZone: string;
}) {
  if (cockpit.indices.length === 0) return null;
  return (
    <section
      aria-label={t.indicesTitle}
      data-testid="home-indices"
      tabIndex={0}
      className="flex gap-2 overflow-x-auto pb-1 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
    >
      {cockpit.indices.map((index) => {
        const dir = direction(index.changePct);
        return (
          <div
            key={`${index.market}-${index.code}`}
            data-testid="home-index"
            className="min-w-36 shrink-0 rounded-md border border-line bg-surface px-3 py-2"
            title={index.error ?? undefined}
          >
            <div className="truncate text-xs text-muted">{locale === "en" ? index.nameEn : index.name}</div>
            <div className={cx("text-sm font-semibold tabular-nums", directionText(dir))}>
              {formatPrice(index.price)}
            </div>
            <div className="flex items-baseline justify-between gap-2 text-xs tabular-nums">
              <span className={directionText(dir)}>{formatSignedPct(index.changePct)}</span>
              {index.delayed ? (
                <span data-testid="home-index-delayed" className="text-amber-700 dark:text-amber-400">
                  {t.delayed}
                </span>
              ) : null}
              <span
                data-testid="home-index-time"
                className={index.source === "sample" ? "text-amber-700 dark:text-amber-400" : "text-muted"}
              >
                {index.time
                  ? `${index.source ? `${index.source} · ` : ""}${formatInstant(index.time, timeZone, { style: "short", label: false })}`
                  : index.error
                    ? t.noData
                    : ""}
              </span>
            </div>
          </div>
        );
      })}
      {cockpit.breadth.map((b) => (
        <div
          key={`breadth-${b.market}`}
          data-testid="home-breadth"
          className="min-w-40 shrink-0 rounded-md border border-line bg-surface px-3 py-2 text-xs"
        >
          <div className="text-muted">{fmt(t.breadthTitle, { market: t.markets[b.market] })}</div>
          <div className="mt-1 tabular-nums">
            <span className={directionText("up")}>↑{b.advancers}</span>{" "}
            <span className={directionText("down")}>↓{b.decliners}</span> <span className="text-muted">→{b.flat}</span>
          </div>
          {b.limitUp !== null ? (
            <div className="tabular-nums text-muted">{fmt(t.limits, { up: b.limitUp, down: b.limitDown ?? 0 })}</div>
          ) : null}
        </div>
      ))}
    </section>
  );
}

function SignalsCard({ cockpit, t, actions }: { cockpit: Cockpit; t: Texts; actions: Record<string, string> }) {
  return (
    <Panel>
      <div className="flex items-center justify-between border-b border-line px-3 py-2">
        <h2 className="text-sm font-semibold">{t.signalsTitle}</h2>
        <Link href="/signals" className="text-xs text-accent hover:underline">
          {t.more}
        </Link>
      </div>
      {cockpit.signals.length === 0 ? (
        <p className="px-3 py-4 text-sm text-muted">{t.signalsEmpty}</p>
      ) : (
        <ul className="divide-y divide-line" data-testid="home-signals">
          {cockpit.signals.map((s) => (
            <li key={s.id} data-testid="home-signal" className="px-3 py-2 text-xs">
              <div className="flex items-center justify-between gap-2">
                <span className="truncate text-sm font-medium">
                  {s.name ?? s.code} <span className="text-xs text-muted">{s.code}</span>
                </span>
                <span
                  className={cx(
                    "rounded border px-1.5 py-0.5 font-medium",
                    actionTone(s.action as Parameters<typeof actionTone>[0]),
                  )}
                >
                  {actions[s.action] ?? s.action}
                </span>
              </div>
              <div className="mt-1 flex flex-wrap gap-x-3 text-muted tabular-nums">
                {s.entryLow !== null ? (
                  <span>
                    {fmt(t.entry, { low: formatPrice(s.entryLow), high: formatPrice(s.entryHigh ?? s.entryLow) })}
                  </span>
                ) : null}
                {s.stopLoss !== null ? <span>{fmt(t.stop, { value: formatPrice(s.stopLoss) })}</span> : null}
                {s.targetPrice !== null ? <span>{fmt(t.target, { value: formatPrice(s.targetPrice) })}</span> : null}
                {s.score !== null ? <span>{fmt(t.score, { value: s.score })}</span> : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

function TriggersCard({
  cockpit,
  t,
  alerts,
  timeZone,
}: {
  cockpit: Cockpit;
  t: Texts;
  alerts: Dictionary["alertsUi"];
  timeZone: string;
}) {
  return (
    <Panel>
      <div className="flex items-center justify-between border-b border-line px-3 py-2">
        <h2 className="text-sm font-semibold">{t.triggersTitle}</h2>
        <Link href="/alerts" className="text-xs text-accent hover:underline">
          {t.more}
        </Link>
      </div>
      {cockpit.triggers.length === 0 ? (
        <p className="px-3 py-4 text-sm text-muted">{t.triggersEmpty}</p>
      ) : (
        <ul className="divide-y divide-line" data-testid="home-triggers">
          {cockpit.triggers.map((tr) => (
            <li key={tr.id} className="px-3 py-2 text-xs">
              <div className="flex justify-between gap-2">
                <span className="font-medium">{tr.target}</span>
                <span className="text-muted tabular-nums">
                  {formatInstant(tr.triggeredAt, timeZone, { style: "time" })}
                </span>
              </div>
              <div className="mt-0.5 text-muted">
                {triggerReason(alerts, {
                  alert_type: tr.alertType,
                  status: "triggered",
                  observed_value: tr.observedValue,
                  threshold: tr.threshold,
                  reason: null,
                  message: tr.message,
                })}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

/** What shows while the cockpit's data is read. */
export function CockpitSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-3" data-testid="cockpit-loading">
      <div className="h-16 animate-pulse rounded-md bg-subtle" />
      <div className="h-48 animate-pulse rounded-md bg-subtle" />
    </div>
  );
}

/** timeZone: the zone times are shown in (the user's display zone); the cockpit's "today" is the service's day. */
export function CockpitView({
  cockpit,
  t,
  ta,
  alerts,
  actions,
  locale,
  at,
  timeZone,
}: {
  cockpit: Cockpit;
  t: Texts;
  ta: Dictionary["analyzeUi"];
  alerts: Dictionary["alertsUi"];
  actions: Record<string, string>;
  locale: string;
  at: Date;
  timeZone: string;
}) {
  const items: WatchItem[] = cockpit.watchlist.map((row) => ({
    token: row.token,
    code: row.code,
    name: row.name,
    invalid: row.invalid,
    price: row.price,
    changePct: row.changePct,
    priceAt: row.priceTime ?? row.priceDate,
    priceSource: row.source,
    priceDate: row.priceDate,
    priceStale: row.priceStale,
    delayed: row.delayed,
    delayedAt:
      row.delayed && row.priceTime
        ? formatInstant(row.priceTime, timeZone, { style: "short", label: false })
        : row.priceDate,
    closes: row.closes,
    dataError: row.dataError,
    latest: row.latest ? { ...row.latest, age: ageText(row.latest.createdAt, at, t) } : null,
  }));
  return (
    <div className="space-y-3" data-testid="cockpit">
      {cockpit.sampleData ? (
        <p
          className="rounded border border-amber-500/40 bg-amber-50 px-3 py-1.5 text-xs text-amber-900 dark:bg-amber-950/40 dark:text-amber-200"
          data-testid="home-sample-note"
        >
          {cockpit.sampleMixed ? t.sampleMixedNote : t.sampleNote}
        </p>
      ) : null}
      <IndicesStrip cockpit={cockpit} t={t} locale={locale} timeZone={timeZone} />
      <div className="grid gap-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Panel className="min-w-0">
          <WatchlistPanel
            items={items}
            t={t}
            ta={ta}
            actions={actions}
            locale={locale}
            sampleData={cockpit.sampleData}
          />
        </Panel>
        <div className="min-w-0 space-y-3">
          <SignalsCard cockpit={cockpit} t={t} actions={actions} />
          <TriggersCard cockpit={cockpit} t={t} alerts={alerts} timeZone={timeZone} />
        </div>
      </div>
    </div>
  );
}
