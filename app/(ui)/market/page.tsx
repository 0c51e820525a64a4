import Link from "next/link";
import { Suspense } from "react";
import { DataUnreachableNotice } from "@/components/setup/data-unreachable-banner";
import { MarketIndices } from "@/components/market/market-indices";
import { MarketReviewDetail } from "@/components/market/market-review-detail";
import { marketHref } from "@/components/market/href";
import { MarketReviewRunner } from "@/components/market/market-review-runner";
import { fmt } from "@/components/settings/format";
import { pageMetadata } from "@/components/shell/coming-soon-page";
import { formatDateTime } from "@/components/history/format";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import { getDisplayTimeZone, getI18n } from "@/lib/i18n/locale";
import { latestMarketReview, type StoredMarketReview } from "@/lib/market-review";
import type { TMarket } from "@/lib/market/symbols";
import { REVIEW_REGIONS, type TReviewRegion } from "@/lib/tasks/schemas";
import { firstParam, type SearchParams } from "@/lib/http/page-query";

export const dynamic = "force-dynamic";
export const generateMetadata = () => pageMetadata("market");

type MarketPageProps = { searchParams: Promise<SearchParams> };

function isRegion(value: unknown): value is TReviewRegion {
  return typeof value === "string" && (REVIEW_REGIONS as readonly string[]).includes(value);
}

/** The markets whose indices the page shows: "both" reviews cn and us, so both strips show. */
function marketsOf(region: TReviewRegion): TMarket[] {
  return region === "both" ? ["cn", "us"] : [region];
}

// The Market page. Runs a review per region (client: POST market-review, progress from the
// SSE task stream) and shows the latest stored review of each region (server: lib/market-review).
// above both, the selected region's indices are read on load (streamed in, see MarketIndices).
export default async function MarketPage({ searchParams }: MarketPageProps) {
  const [{ locale, t }, params, { zone: timeZone }] = await Promise.all([
    getI18n(),
    searchParams,
    getDisplayTimeZone(),
  ]);
  const latest = await Promise.all(REVIEW_REGIONS.map((region) => latestMarketReview(region)));
  const byRegion = new Map<TReviewRegion, StoredMarketReview | null>(
    REVIEW_REGIONS.map((region, i) => [region, latest[i] ?? null]),
  );
  const asked = firstParam(params.region);
  // No region asked for: the region of the newest review, else cn.
  const newest = latest.filter((r): r is StoredMarketReview => r !== null).sort((a, b) => b.record.id - a.record.id)[0];
  const region: TReviewRegion = isRegion(asked) ? asked : isRegion(newest?.region) ? newest.region : "cn";
  const review = byRegion.get(region) ?? null;
  const tm = t.marketUi;
  const marketNames: Record<TMarket, string> = {
    cn: t.tasksUi.regions.cn,
    hk: t.tasksUi.regions.hk,
    us: t.tasksUi.regions.us,
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <h1 className="text-xl font-semibold tracking-tight">{t.pages.market.title}</h1>
      <p className="mt-1 max-w-3xl text-sm text-muted">{tm.intro}</p>
      <Suspense fallback={null}>
        <DataUnreachableNotice className="mt-4" />
      </Suspense>
      {/* One region choice for the whole page: the indices shown and the review below. */}
      <nav aria-label={tm.regionTabs} className="mt-4 max-w-full overflow-x-auto">
        <ul className="inline-flex rounded-md border border-line bg-subtle p-0.5">
          {REVIEW_REGIONS.map((value) => {
            const stored = byRegion.get(value);
            const current = value === region;
            return (
              <li key={value}>
                <Link
                  href={marketHref(value)}
                  aria-current={current ? "page" : undefined}
                  scroll={false}
                  className={cx(
                    "inline-flex h-7 items-center gap-1.5 rounded px-2.5 text-xs font-medium whitespace-nowrap",
                    "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent",
                    current ? "bg-surface text-fg shadow-sm dark:bg-line" : "text-muted hover:text-fg",
                  )}
                >
                  {t.tasksUi.regions[value]}
                  {stored ? (
                    <span className="font-normal text-muted tabular-nums">
                      {formatDateTime(stored.record.createdAt.toISOString(), timeZone).slice(5, 10)}
                    </span>
                  ) : null}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      {/* Data first (on a phone the indices come before the run buttons). */}
      <div className="mt-3">
        <MarketIndices
          markets={marketsOf(region)}
          marketNames={marketNames}
          t={tm}
          locale={locale}
          timeZone={timeZone}
        />
      </div>
      <div className="mt-5">
        <MarketReviewRunner
          t={tm}
          tt={t.tasksUi}
          locale={locale}
          languageLabel={t.analyzeUi.reportLanguage}
          languageNames={t.analyzeUi.reportLanguages}
        />
      </div>
      <section aria-labelledby="latest-review-title" className="mt-5">
        <h2 id="latest-review-title" className="text-base font-semibold">
          {tm.latestTitle}
        </h2>
        <div className="mt-3">
          {review ? (
            <MarketReviewDetail t={tm} review={review} />
          ) : (
            <Panel className="px-4 py-6 text-center text-sm text-muted">
              <p data-testid="no-review">{fmt(tm.noReview, { region: t.tasksUi.regions[region] })}</p>
            </Panel>
          )}
        </div>
      </section>
    </div>
  );
}
