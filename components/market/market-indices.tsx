import { Suspense, type ReactNode } from "react";
import { directionText } from "@/components/analysis/tone";
import { formatPrice, formatSignedPct } from "@/components/history/format";
import { fmt } from "@/components/settings/format";
import { Badge } from "@/components/ui/badge";
import { cx } from "@/components/ui/cx";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { indexStrip, type IndexStrip, type IndexStripRow } from "@/lib/market/index-strip";
import type { TMarket } from "@/lib/market/symbols";
import { MiniChart } from "./mini-chart";

type Texts = Dictionary["marketUi"];

interface StripProps {
  market: TMarket;
  marketName: string;
  t: Texts;
  locale: string;
  timeZone: string;
}

function direction(value: number | null | undefined): "up" | "down" | "flat" {
  return value === null || value === undefined || value === 0 ? "flat" : value > 0 ? "up" : "down";
}

function formatSigned(value: number): string {
  return `${value > 0 ? "+" : ""}${value.toFixed(2)}`;
}

/** "11-20 15:00" and "2026-11-20 15:00": a quote's time in the strip's zone (named once, in the strip's header). */
function quoteTimeText(iso: string, timeZone: string): { short: string; full: string } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const short = `${get("month")}-${get("day")} ${get("hour")}:${get("minute")}`;
  return { short, full: `${get("year")}-${short}` };
}

/** "Asia/Shanghai (GMT+8)": the zone the strip's times are shown in, with its offset at `at`. */
function zoneLabel(timeZone: string, at: string): string {
  const offset = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "shortOffset" })
    .formatToParts(new Date(at))
    .find((p) => p.type === "timeZoneName")?.value;
  return offset ? `${timeZone} (${offset})` : timeZone;
}

function IndexCard({ row, t, locale, timeZone }: { row: IndexStripRow; t: Texts; locale: string; timeZone: string }) {
  const name = locale === "en" ? row.name_en : row.name;
  const quote = row.quote;
  const tone = directionText(direction(quote?.change));
  const closes = row.closes.map((c) => c.close);
  const time = quote ? quoteTimeText(quote.time, timeZone) : null;
  return (
    <li
      data-testid="index-row"
      data-canonical-id={row.canonical_id}
      data-code={row.display_code}
      data-state={quote ? "ok" : "no-data"}
      className="min-w-0 rounded-md border border-line bg-surface px-2.5 pt-2 pb-1.5"
    >
      <div className="flex items-baseline justify-between gap-2">
        <h3 className="truncate text-xs font-medium" title={name}>
          {name}
        </h3>
        <span className="shrink-0 font-mono text-[11px] text-muted">{row.display_code}</span>
      </div>
      {quote ? (
        <dl className="text-[11px] leading-4 text-muted">
          <div className="mt-0.5 flex flex-wrap items-baseline gap-x-2">
            <dt className="sr-only">{t.colPrice}</dt>
            <dd
              data-testid="index-price"
              data-direction={direction(quote.change)}
              className={cx("text-lg leading-6 font-semibold tabular-nums", tone)}
            >
              {formatPrice(quote.price)}
            </dd>
            <dt className="sr-only">{t.colChange}</dt>
            <dd className={cx("text-xs font-medium whitespace-nowrap tabular-nums", tone)}>
              <span data-testid="index-change">{formatSigned(quote.change)}</span>{" "}
              <span data-testid="index-change-pct">{formatSignedPct(quote.change_pct)}</span>
            </dd>
          </div>
          <div className="flex flex-wrap justify-between gap-x-2">
            <dt>{t.dayRange}</dt>
            <dd data-testid="index-range" className="text-fg tabular-nums">
              {formatPrice(quote.low)}–{formatPrice(quote.high)}
            </dd>
          </div>
          {time ? (
            <div className="flex flex-wrap justify-between gap-x-2">
              <dt>{t.quoteTime}</dt>
              <dd className="tabular-nums">
                <time data-testid="index-time" dateTime={quote.time} title={`${time.full} ${timeZone}`}>
                  {time.short}
                </time>
              </dd>
            </div>
          ) : null}
        </dl>
      ) : (
        <p
          data-testid="index-no-data"
          title={row.quote_error ?? undefined}
          className="mt-0.5 text-sm leading-6 text-muted"
        >
          {t.noData}
        </p>
      )}
      <div className="mt-1">
        {closes.length >= 2 ? (
          <MiniChart closes={closes} label={fmt(t.chartLabel, { name, days: closes.length })} />
        ) : (
          <p
            data-testid="index-no-bars"
            title={row.bars_error ?? undefined}
            className="flex h-8 items-center text-[11px] text-muted"
          >
            {t.noBars}
          </p>
        )}
      </div>
    </li>
  );
}

function Breadth({ strip, t }: { strip: IndexStrip; t: Texts }) {
  const b = strip.breadth;
  if (!b) {
    return (
      <p
        data-testid="index-breadth"
        data-state="none"
        title={strip.breadth_note ?? undefined}
        className="text-xs text-muted"
      >
        {t.breadth}: {t.noBreadth}
      </p>
    );
  }
  const items: { key: string; label: string; value: number; dir: "up" | "down" | "flat" }[] = [
    { key: "advancers", label: t.advancers, value: b.advancers, dir: "up" },
    { key: "decliners", label: t.decliners, value: b.decliners, dir: "down" },
    { key: "flat", label: t.flat, value: b.flat, dir: "flat" },
  ];
  if (b.limit_up !== null) items.push({ key: "limit-up", label: t.limitUp, value: b.limit_up, dir: "up" });
  if (b.limit_down !== null) items.push({ key: "limit-down", label: t.limitDown, value: b.limit_down, dir: "down" });
  return (
    <div
      data-testid="index-breadth"
      data-state="ok"
      title={b.universe}
      className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-xs"
    >
      <span className="font-semibold">{t.breadth}</span>
      <dl className="contents">
        {items.map((item) => (
          <div key={item.key} className="flex items-baseline gap-1">
            <dt className="text-muted">{item.label}</dt>
            <dd
              data-testid={`breadth-${item.key}`}
              className={cx("font-medium tabular-nums", item.value > 0 ? directionText(item.dir) : undefined)}
            >
              {item.value}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function StripHeader({ id, title, children }: { id: string; title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <h2 id={id} className="text-base font-semibold">
        {title}
      </h2>
      {children}
    </div>
  );
}

/** One market's strip from data already read (the async section below reads it; other pages may reuse the view). */
export function IndexStripView({
  strip,
  marketName,
  t,
  locale,
  timeZone,
}: {
  strip: IndexStrip;
  marketName: string;
  t: Texts;
  locale: string;
  timeZone: string;
}) {
  const market = strip.region;
  const titleId = `index-strip-${market}-title`;
  const title = fmt(t.stripTitle, { market: marketName });
  return (
    <section
      aria-labelledby={titleId}
      data-testid="index-strip"
      data-region={market}
      data-state="ok"
      data-sample={strip.is_sample}
      className="space-y-2"
    >
      <StripHeader id={titleId} title={title}>
        {strip.is_sample ? (
          <span data-testid="index-strip-sample">
            <Badge tone="accent">{t.sampleData}</Badge>
          </span>
        ) : null}
        <span className="text-xs text-muted">{fmt(t.timesIn, { zone: zoneLabel(timeZone, strip.as_of) })}</span>
      </StripHeader>
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4">
        {strip.indices.map((row) => (
          <IndexCard key={row.canonical_id} row={row} t={t} locale={locale} timeZone={timeZone} />
        ))}
      </ul>
      <Breadth strip={strip} t={t} />
    </section>
  );
}

async function IndexStripSection({ market, marketName, t, locale, timeZone }: StripProps) {
  const titleId = `index-strip-${market}-title`;
  const title = fmt(t.stripTitle, { market: marketName });
  let strip: IndexStrip;
  try {
    strip = await indexStrip(market);
  } catch (error) {
    // indexStrip absorbs provider failures; anything else still leaves the rest of the page standing.
    return (
      <section
        aria-labelledby={titleId}
        data-testid="index-strip"
        data-region={market}
        data-state="failed"
        className="space-y-2"
      >
        <StripHeader id={titleId} title={title} />
        <p role="status" className="text-sm text-muted" title={error instanceof Error ? error.message : String(error)}>
          {fmt(t.stripFailed, { market: marketName })}
        </p>
      </section>
    );
  }
  return <IndexStripView strip={strip} marketName={marketName} t={t} locale={locale} timeZone={timeZone} />;
}

function StripFallback({ market, marketName, t }: { market: TMarket; marketName: string; t: Texts }) {
  return (
    <section
      aria-busy="true"
      aria-labelledby={`index-strip-${market}-loading`}
      data-testid="index-strip-loading"
      data-region={market}
      className="space-y-2"
    >
      <StripHeader id={`index-strip-${market}-loading`} title={fmt(t.stripTitle, { market: marketName })} />
      <p role="status" className="text-xs text-muted">
        {fmt(t.stripLoading, { market: marketName })}
      </p>
      <div aria-hidden="true" className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="h-28 animate-pulse rounded-md border border-line bg-subtle" />
        ))}
      </div>
    </section>
  );
}

/**
 * The indices of the selected markets, read on page load (server render, streamed in per market so a
 * slow provider never holds up the rest of the page): price, change, day range, quote time and a 60-day line each.
 */
export function MarketIndices({
  markets,
  marketNames,
  t,
  locale,
  timeZone,
}: {
  markets: readonly TMarket[];
  marketNames: Record<TMarket, string>;
  t: Texts;
  locale: string;
  timeZone: string;
}) {
  return (
    <div className="space-y-4">
      {markets.map((market) => (
        <Suspense key={market} fallback={<StripFallback market={market} marketName={marketNames[market]} t={t} />}>
          <IndexStripSection
            market={market}
            marketName={marketNames[market]}
            t={t}
            locale={locale}
            timeZone={timeZone}
          />
        </Suspense>
      ))}
    </div>
  );
}
