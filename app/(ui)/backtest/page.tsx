import Link from "next/link";
import { CallsChart, EquityChart } from "@/components/backtest/backtest-charts";
import { BacktestForm } from "@/components/backtest/backtest-form";
import { CallsTable } from "@/components/backtest/calls-table";
import { DeleteRunButton } from "@/components/backtest/delete-run-button";
import { ReportEvalPanel } from "@/components/backtest/report-eval-panel";
import { SummaryExport } from "@/components/backtest/summary-export";
import { SummaryTables } from "@/components/backtest/summary-tables";
import { ZonedTime } from "@/components/shell/time-zone";
import { fmt } from "@/components/settings/format";
import { pageMetadata } from "@/components/shell/coming-soon-page";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import { getBacktestSeries, listBacktestCalls, listBacktests, listCallActions } from "@/lib/backtest/read";
import { ZBacktestIdParams, type TBacktestRun } from "@/lib/backtest/schemas";
import { getBacktestOrThrow } from "@/lib/backtest/read";
import { ApiError } from "@/lib/errors/api-error";
import { getI18n } from "@/lib/i18n/locale";
import { displayName, nameLanguage } from "@/lib/market/symbols";
import { listReportBacktestResults, reportBacktestPerformance } from "@/lib/report-eval/read";
import { REPORT_EVAL_WINDOW, type TReportEvalPerformance } from "@/lib/report-eval/schemas";
import { firstParam, type SearchParams } from "@/lib/http/page-query";

export const dynamic = "force-dynamic";
export const generateMetadata = () => pageMetadata("backtest");

type BacktestPageProps = { searchParams: Promise<SearchParams> };

const RUNS_SHOWN = 30;

async function selectedRun(id: string | undefined): Promise<TBacktestRun | null> {
  const parsed = ZBacktestIdParams.safeParse({ backtest_id: id });
  if (!parsed.success) return null;
  try {
    return await getBacktestOrThrow(parsed.data.backtest_id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** The stored reports' evaluations for a window (the latest evaluated one when none is asked), or null when there are none. */
async function reportEvaluations(asked: string | undefined) {
  const window = Number(asked);
  const query =
    Number.isInteger(window) && window >= REPORT_EVAL_WINDOW.min && window <= REPORT_EVAL_WINDOW.max
      ? { eval_window_days: window }
      : {};
  let performance: TReportEvalPerformance | null = null;
  try {
    performance = await reportBacktestPerformance(query);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
  const shown = performance?.eval_window_days ?? query.eval_window_days ?? REPORT_EVAL_WINDOW.default;
  const items = performance
    ? (await listReportBacktestResults({ eval_window_days: shown, page: 1, limit: 20 })).items
    : [];
  return { window: shown, performance, items };
}

// Run a backtest, follow it live, read its results; earlier runs stay listed and reopenable.
export default async function BacktestPage({ searchParams }: BacktestPageProps) {
  const [{ locale, t }, params] = await Promise.all([getI18n(), searchParams]);
  const tb = t.backtestUi;
  const asked = firstParam(params.id);
  const runs = await listBacktests({ page: 1, page_size: RUNS_SHOWN });
  const reports = await reportEvaluations(firstParam(params.reports_window));
  // No run asked for: the newest completed one.
  const run =
    (await selectedRun(asked)) ??
    (asked ? null : await selectedRun(runs.items.find((r) => r.status === "completed")?.backtest_id));
  const completed = run?.status === "completed" && run.summary ? run : null;
  const [series, firstCalls, actions] = completed
    ? await Promise.all([
        getBacktestSeries(completed.backtest_id),
        listBacktestCalls(completed.backtest_id, { page: 1, page_size: 100 }),
        listCallActions(completed.backtest_id),
      ])
    : [null, null, null];
  const actionLabels = t.signalsUi.actions;

  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <h1 className="text-xl font-semibold tracking-tight">{t.pages.backtest.title}</h1>
      <p className="mt-1 max-w-3xl text-sm text-muted">{tb.intro}</p>
      <div className="mt-4">
        <BacktestForm t={tb} ta={t.analyzeUi} locale={locale} />
      </div>
      <div className="mt-5 grid gap-5 lg:grid-cols-[16rem_1fr]">
        <Panel className="self-start p-3">
          <h2 className="text-sm font-semibold">{tb.runsTitle}</h2>
          {runs.items.length === 0 ? (
            <p className="mt-2 text-sm text-muted" data-testid="no-runs">
              {tb.noRuns}
            </p>
          ) : (
            <ul className="mt-2 space-y-1" data-testid="backtest-runs">
              {runs.items.map((r) => (
                <li key={r.backtest_id}>
                  <Link
                    href={`/backtest?id=${encodeURIComponent(r.backtest_id)}`}
                    aria-current={r.backtest_id === run?.backtest_id ? "page" : undefined}
                    className={cx(
                      "block rounded px-2 py-1.5 text-sm hover:bg-subtle",
                      r.backtest_id === run?.backtest_id && "bg-accent-soft",
                    )}
                  >
                    <span className="font-medium tabular-nums">{r.stock_code}</span>{" "}
                    <span>{displayName({ code: r.stock_code }, nameLanguage(locale), r.stock_name)}</span>
                    <span className="block text-xs text-muted tabular-nums">
                      {tb.statuses[r.status]} · <ZonedTime value={r.created_at} /> · {r.engine_version}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <div className="min-w-0 space-y-5">
          {!run ? (
            <Panel className="px-4 py-6 text-center text-sm text-muted">{tb.noneSelected}</Panel>
          ) : (
            <Panel className="space-y-5 p-4">
              <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <h2 className="text-lg font-semibold" data-testid="backtest-title">
                  {run.stock_code} {displayName({ code: run.stock_code }, nameLanguage(locale), run.stock_name)}
                </h2>
                <span className="text-xs text-muted">{tb.statuses[run.status]}</span>
                <span className="ml-auto">
                  <DeleteRunButton
                    id={run.backtest_id}
                    labels={{ delete: tb.delete, confirm: tb.deleteConfirm, cancel: t.historyUi.cancel }}
                  />
                </span>
                <p className="basis-full text-xs text-muted tabular-nums" data-testid="backtest-meta">
                  {fmt(tb.meta, {
                    from: run.start_date ?? "—",
                    to: run.end_date ?? "—",
                    calls: run.calls_total,
                    step: run.step,
                    band: run.neutral_band_pct,
                    engine: run.engine_version,
                    source: run.data_source ?? "—",
                    lastBar: run.last_bar_date ?? "—",
                  })}
                </p>
                {run.data_source === "sample" ? (
                  <p className="basis-full text-xs text-amber-700 dark:text-amber-300">{tb.sampleNote}</p>
                ) : null}
                {run.status === "failed" ? (
                  <p role="alert" className="basis-full text-sm text-red-700 dark:text-red-300">
                    {tb.failed}: {run.error}
                  </p>
                ) : null}
              </div>
              {completed && series && firstCalls && actions ? (
                <>
                  <section>
                    <h3 className="text-sm font-semibold">{tb.equityTitle}</h3>
                    <EquityChart
                      points={series.items}
                      labels={{ strategy: tb.strategy, buyHold: tb.buyHold }}
                      ariaLabel={tb.equityChart}
                    />
                  </section>
                  <div className="flex justify-end">
                    <SummaryExport
                      t={tb}
                      summary={completed.summary!}
                      filename={`backtest-summary-${completed.stock_code}-${completed.backtest_id.slice(0, 8)}.csv`}
                    />
                  </div>
                  <SummaryTables t={tb} summary={completed.summary!} actionLabels={actionLabels} />
                  <section>
                    <h3 className="text-sm font-semibold">{tb.priceTitle}</h3>
                    <CallsChart
                      points={series.items}
                      calls={actions}
                      actionLabels={actionLabels}
                      ariaLabel={tb.priceChart}
                      legend={{ long: tb.legendLong, short: tb.legendShort }}
                    />
                  </section>
                  <CallsTable
                    t={tb}
                    backtestId={completed.backtest_id}
                    stockCode={completed.stock_code}
                    horizons={completed.horizons}
                    total={completed.calls_total}
                    firstPage={firstCalls.items}
                    actionLabels={actionLabels}
                  />
                </>
              ) : null}
            </Panel>
          )}
        </div>
      </div>
      <div className="mt-5">
        <ReportEvalPanel
          t={t.reportsUi}
          actionLabels={actionLabels}
          window={reports.window}
          performance={reports.performance}
          items={reports.items}
        />
      </div>
    </div>
  );
}
