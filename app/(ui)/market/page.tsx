import Link from "next/link";
import { MarketReviewDetail } from "@/components/market/market-review-detail";
import { marketHref } from "@/components/market/href";
import { MarketReviewRunner } from "@/components/market/market-review-runner";
import { fmt } from "@/components/settings/format";
import { pageMetadata } from "@/components/shell/coming-soon-page";
import { formatDateTime } from "@/components/history/format";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import { getI18n } from "@/lib/i18n/locale";
import { latestMarketReview, type StoredMarketReview } from "@/lib/market-review";
import { REVIEW_REGIONS, type TReviewRegion } from "@/lib/tasks/schemas";
import { serviceTimeZone } from "@/lib/usage/time-zone";

export const dynamic = "force-dynamic";
export const generateMetadata = () => pageMetadata("market");

type MarketPageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function isRegion(value: unknown): value is TReviewRegion {
  return typeof value === "string" && (REVIEW_REGIONS as readonly string[]).includes(value);
}

// Issue 5 item 9: the Market page. Runs a review per region (client: POST market-review, progress from the
// SSE task stream) and shows the latest stored review of each region (server: lib/market-review).
export default async function MarketPage({ searchParams }: MarketPageProps) {
  const [{ locale, t }, params] = await Promise.all([getI18n(), searchParams]);
  const latest = await Promise.all(REVIEW_REGIONS.map((region) => latestMarketReview(region)));
  const byRegion = new Map<TReviewRegion, StoredMarketReview | null>(REVIEW_REGIONS.map((region, i) => [region, latest[i] ?? null]));
  const asked = Array.isArray(params.region) ? params.region[0] : params.region;
  // No region asked for: the region of the newest review, else cn.
  const newest = latest.filter((r): r is StoredMarketReview => r !== null).sort((a, b) => b.record.id - a.record.id)[0];
  const region: TReviewRegion = isRegion(asked) ? asked : isRegion(newest?.region) ? newest.region : "cn";
  const review = byRegion.get(region) ?? null;
  const timeZone = serviceTimeZone();
  const tm = t.marketUi;

  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <h1 className="text-xl font-semibold tracking-tight">{t.pages.market.title}</h1>
      <p className="mt-1 max-w-3xl text-sm text-muted">{tm.intro}</p>
      <div className="mt-4">
        <MarketReviewRunner
          t={tm}
          tt={t.tasksUi}
          locale={locale}
          languageLabel={t.analyzeUi.reportLanguage}
          languageNames={t.analyzeUi.reportLanguages}
        />
      </div>
      <section aria-labelledby="latest-review-title" className="mt-5">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <h2 id="latest-review-title" className="text-base font-semibold">
            {tm.latestTitle}
          </h2>
          <nav aria-label={tm.regionTabs} className="max-w-full overflow-x-auto">
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
                        <span className="font-normal text-muted tabular-nums">{formatDateTime(stored.record.createdAt.toISOString(), timeZone).slice(5, 10)}</span>
                      ) : null}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
        </div>
        <div className="mt-3">
          {review ? (
            <MarketReviewDetail t={tm} review={review} timeZone={timeZone} />
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
