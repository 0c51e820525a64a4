import Link from "next/link";
import { directionText } from "@/components/analysis/tone";
import { formatPrice, formatSignedPct } from "@/components/history/format";
import { MarkdownText } from "@/components/history/markdown-text";
import { fmt } from "@/components/settings/format";
import { ZonedTime } from "@/components/shell/time-zone";
import { Badge } from "@/components/ui/badge";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { StoredMarketReview } from "@/lib/market-review/read";
import { narrativeOf, reviewMarkets } from "@/lib/market-review/rules";
import { ZMarketReviewPayload, type TMarketReviewPayload, type TReviewMarket } from "@/lib/market-review/schemas";

type Texts = Dictionary["marketUi"];

const LIGHT_TONES: Record<NonNullable<TMarketReviewPayload["market_light"]["light"]>, string> = {
  green: "bg-emerald-500",
  yellow: "bg-amber-400",
  red: "bg-red-500",
};

function direction(value: number | null): "up" | "down" | "flat" {
  return value === null || value === 0 ? "flat" : value > 0 ? "up" : "down";
}

function MarketTable({ t, market }: { t: Texts; market: TReviewMarket }) {
  // Labels by code in the UI language; the review's own text keeps the review's language.
  const caption = fmt(t.indices, { market: t.markets[market.region] });
  const b = market.breadth;
  return (
    <div data-testid="review-market" data-region={market.region}>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-sm" data-testid="review-indices">
          <caption className="px-3 pt-2 pb-1 text-left text-xs font-semibold">
            {caption}
            {market.date ? <span className="ml-2 font-normal text-muted tabular-nums">{market.date}</span> : null}
          </caption>
          <thead>
            <tr className="border-b border-line text-xs text-muted">
              <th scope="col" className="px-3 py-1 text-left font-medium">
                {t.colIndex}
              </th>
              <th scope="col" className="px-2 py-1 text-right font-medium">
                {t.colPrice}
              </th>
              <th scope="col" className="px-3 py-1 text-right font-medium">
                {t.colChangePct}
              </th>
            </tr>
          </thead>
          <tbody>
            {market.indices.map((index) => (
              <tr key={index.canonical_id} className="border-b border-line/60 last:border-b-0">
                <th scope="row" className="px-3 py-1 text-left font-normal">
                  <span className="block truncate">{index.name}</span>
                  <span className="block font-mono text-[11px] leading-4 text-muted">{index.code}</span>
                </th>
                <td className="px-2 py-1 text-right tabular-nums">
                  {index.current === null ? (
                    <span className="text-xs text-muted">{t.noQuote}</span>
                  ) : (
                    formatPrice(index.current)
                  )}
                </td>
                <td
                  className={cx(
                    "px-3 py-1 text-right font-medium tabular-nums",
                    directionText(direction(index.change_pct)),
                  )}
                  data-direction={direction(index.change_pct)}
                >
                  {formatSignedPct(index.change_pct)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="border-t border-line px-3 py-2" data-testid="review-breadth">
        <p className="text-xs font-semibold">{t.breadth}</p>
        {b ? (
          <dl className="mt-1 grid grid-cols-3 gap-x-3 gap-y-1 text-sm tabular-nums">
            <div>
              <dt className="text-xs text-muted">{t.advancers}</dt>
              <dd className={b.up_count ? directionText("up") : undefined}>{b.up_count}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted">{t.decliners}</dt>
              <dd className={b.down_count ? directionText("down") : undefined}>{b.down_count}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted">{t.flat}</dt>
              <dd>{b.flat_count}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted">{t.advancePct}</dt>
              <dd>{b.advance_pct === null ? "—" : `${b.advance_pct.toFixed(1)}%`}</dd>
            </div>
            {b.limit_up_count !== null ? (
              <div>
                <dt className="text-xs text-muted">{t.limitUp}</dt>
                <dd className={b.limit_up_count ? directionText("up") : undefined}>{b.limit_up_count}</dd>
              </div>
            ) : null}
            {b.limit_down_count !== null ? (
              <div>
                <dt className="text-xs text-muted">{t.limitDown}</dt>
                <dd className={b.limit_down_count ? directionText("down") : undefined}>{b.limit_down_count}</dd>
              </div>
            ) : null}
            {b.total_amount !== null && b.turnover_unit !== null ? (
              <div>
                <dt className="text-xs text-muted">{t.turnover}</dt>
                <dd data-testid="review-turnover">
                  {b.total_amount.toFixed(2)} <span className="text-xs text-muted">{b.turnover_unit}</span>
                </dd>
              </div>
            ) : null}
          </dl>
        ) : (
          <p className="mt-1 text-xs text-muted">{market.breadth_note ?? t.noBreadth}</p>
        )}
      </div>
    </div>
  );
}

/** The latest review of one region: its numbers (temperature, indices, breadth) beside the review text. */
export function MarketReviewDetail({ t, review }: { t: Texts; review: StoredMarketReview }) {
  const parsed = ZMarketReviewPayload.safeParse(review.payload);
  const payload = parsed.success ? parsed.data : null;
  const { record } = review;
  const generated = payload?.generated_at ?? record.createdAt.toISOString();
  const temperature = payload?.market_light ?? null;
  return (
    <article
      aria-label={payload?.title ?? record.stockName ?? t.reportTitle}
      data-testid="latest-review"
      data-query-id={record.queryId}
      className="space-y-3"
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2 className="text-base font-semibold">{payload?.title ?? record.stockName}</h2>
        <span className="text-xs text-muted tabular-nums" data-testid="review-generated" data-at={generated}>
          <ZonedTime value={generated} template={t.generatedAt} />
        </span>
        <Badge>
          {payload?.engine === "llm" && payload.model ? fmt(t.engineLlm, { model: payload.model }) : t.engineRules}
        </Badge>
        {payload?.is_sample_data ? <Badge tone="accent">{t.sampleData}</Badge> : null}
        <Link
          href={`/history/${encodeURIComponent(record.queryId)}`}
          className="ml-auto text-xs font-medium text-accent underline-offset-2 hover:underline"
        >
          {t.openRecord}
        </Link>
      </div>
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-3">
        <div className="min-w-0 space-y-3 lg:order-2">
          {payload ? (
            <Panel>
              <div className="flex items-center gap-3 border-b border-line px-3 py-2">
                <div>
                  <p className="text-xs text-muted">{t.temperature}</p>
                  <p className="text-2xl font-semibold tabular-nums" data-testid="review-temperature">
                    {temperature?.score ?? "—"}
                    <span className="ml-1 text-xs font-normal text-muted">/ 100</span>
                  </p>
                </div>
                {temperature?.light ? (
                  <span aria-hidden="true" className={cx("size-3 rounded-full", LIGHT_TONES[temperature.light])} />
                ) : null}
                {temperature?.level ? (
                  <span className="text-sm font-medium" data-level={temperature.level}>
                    {t.temperatureLevels[temperature.level]}
                  </span>
                ) : null}
                <div className="ml-auto text-right">
                  <p className="text-xs text-muted">{t.stance}</p>
                  <p className="text-sm font-medium" data-stance={payload.outlook.stance}>
                    {t.stances[payload.outlook.stance]}
                  </p>
                </div>
              </div>
              <div className="divide-y divide-line">
                {reviewMarkets(payload).map((market) => (
                  <MarketTable key={market.region} t={t} market={market} />
                ))}
              </div>
            </Panel>
          ) : null}
        </div>
        <Panel className="min-w-0 px-4 py-3 lg:order-1 lg:col-span-2">
          {payload || review.report ? (
            <div data-testid="review-body">
              <MarkdownText source={payload ? narrativeOf(payload) : review.report} />
            </div>
          ) : (
            <p className="text-sm text-muted">{t.noReportText}</p>
          )}
        </Panel>
      </div>
    </article>
  );
}
