import Link from "next/link";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { toReportView } from "@/components/analysis/report-model";
import { DeleteRecordButton } from "@/components/history/delete-buttons";
import { DiagnosticsPanel } from "@/components/history/diagnostics-panel";
import { FlowGraph } from "@/components/history/flow-graph";
import { formatDateTime, MARKET_REVIEW, reportTypeLabel } from "@/components/history/format";
import { MarkdownPanel } from "@/components/history/markdown-panel";
import { MarketReviewView } from "@/components/history/market-review-view";
import { ReanalyzeButton } from "@/components/history/reanalyze-button";
import { SharePanel } from "@/components/history/share-panel";
import { StockRunsPanel } from "@/components/history/stock-runs-panel";
import { StockTrend } from "@/components/history/stock-trend";
import { StoredReportView } from "@/components/history/stored-report-view";
import { PaperForwardPanel } from "@/components/paper/forward-panel";
import { paperForStock } from "@/lib/paper/for-stock";
import { fmt } from "@/components/settings/format";
import { listHistory } from "@/lib/history/list";
import {
  getHistoryDiagnostics,
  getHistoryFlow,
  getHistoryMarkdown,
  getHistoryNews,
  getHistoryReport,
} from "@/lib/history/record";
import { NEWS_LIMIT, type TAnalysisReport } from "@/lib/history/schemas";
import { withUiStockName } from "@/lib/history/stock-name";
import { getStockTrend } from "@/lib/history/trend";
import { ApiError } from "@/lib/errors/api-error";
import { getDisplayTimeZone, getI18n } from "@/lib/i18n/locale";
import { nameLanguage, type NameLanguage } from "@/lib/market/symbols";

export const dynamic = "force-dynamic";

type ReportPageProps = { params: Promise<{ recordId: string }> };

// Runs of the same stock listed beside a report; the History page has the rest.
const RUNS_SHOWN = 20;

/** The stored report, or the 404 page for an unknown id / query_id. */
async function reportOrNotFound(recordId: string): Promise<TAnalysisReport> {
  try {
    return await getHistoryReport(decodeURIComponent(recordId));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) notFound();
    throw error;
  }
}

/** The page's own name of the report's stock, in the UI language (the report body keeps its report language). */
function displayName(report: TAnalysisReport, marketReview: string, language: NameLanguage): string {
  if (report.meta.report_type === MARKET_REVIEW) return marketReview;
  return withUiStockName(report.meta, language).stock_name ?? report.meta.stock_code;
}

export async function generateMetadata({ params }: ReportPageProps): Promise<Metadata> {
  const [{ t, locale }, { recordId }] = await Promise.all([getI18n(), params]);
  try {
    const report = await getHistoryReport(decodeURIComponent(recordId));
    return {
      title: `${displayName(report, t.historyUi.marketReview, nameLanguage(locale))} · ${t.pages.history.title}`,
    };
  } catch {
    return { title: t.historyUi.notFoundTitle };
  }
}

// One stored report. Stock reports reuse the Analyze page's report view (numbers, levels, chart
// of the stored bars, indicators, news) with the stock's score and price trend by the headline; then
// the runs of the stock and the share image. The run's own record (flow graph, diagnostics, trace id, raw Markdown)
// waits in a collapsed "run details" section: it is for finding out how a report came about, not for trading.
export default async function HistoryReportPage({ params }: ReportPageProps) {
  const [{ t, locale }, { recordId }, { zone }] = await Promise.all([getI18n(), params, getDisplayTimeZone()]);
  const texts = t.historyUi;
  const report = await reportOrNotFound(recordId);
  const id = String(report.meta.id ?? report.meta.query_id);
  const review = report.meta.report_type === MARKET_REVIEW;
  const [diagnostics, flow, news, markdown, runs, trend, paper] = await Promise.all([
    getHistoryDiagnostics(id),
    getHistoryFlow(id),
    getHistoryNews(id, NEWS_LIMIT.max),
    getHistoryMarkdown(id).then(
      (r) => r.content,
      () => null,
    ),
    review ? null : listHistory({ stock_code: report.meta.stock_code, page: 1, limit: RUNS_SHOWN }),
    review || report.meta.id === null ? null : getStockTrend(report.meta.id),
    review ? [] : paperForStock(report.meta.stock_code),
  ]);
  const name = displayName(report, texts.marketReview, nameLanguage(locale));
  const meta = fmt(texts.reportMeta, {
    type: reportTypeLabel(texts.reportTypes, report.meta.report_type),
    time: formatDateTime(report.meta.created_at, zone),
    id: report.meta.id ?? report.meta.query_id,
  });

  // The stored news rows (with their links) stand in for the report's news text when there are any.
  const view = toReportView({
    query_id: report.meta.query_id,
    trace_id: diagnostics.trace_id ?? null,
    stock_code: report.meta.stock_code,
    stock_name: report.meta.stock_name,
    report,
    diagnostic_summary: diagnostics as unknown as Record<string, unknown>,
    created_at: report.meta.created_at,
  });
  if (news.items.length > 0)
    view.newsItems = news.items.map((n) => ({
      title: n.title,
      url: /^https?:\/\//i.test(n.url) ? n.url : null,
      snippet: n.snippet || null,
    }));

  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <nav aria-label={texts.backToHistory} className="text-xs text-muted">
        <Link href="/history" className="text-accent underline underline-offset-2">
          {texts.backToHistory}
        </Link>
        <span aria-hidden="true"> / </span>
        <span>#{report.meta.id}</span>
      </nav>
      <div className="mt-1 flex flex-wrap items-end justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <h1 className="text-xl font-semibold tracking-tight">
            {name}
            {review ? null : (
              <span className="ml-2 font-mono text-base font-normal text-muted">{report.meta.stock_code}</span>
            )}
          </h1>
          <p className="mt-0.5 text-xs text-muted" data-testid="report-meta">
            {meta}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {review ? null : (
            <ReanalyzeButton
              t={texts}
              stockCode={report.meta.stock_code}
              reportType={report.meta.report_type}
              language={report.meta.report_language}
            />
          )}
          {review || report.meta.id === null ? null : (
            <Link
              href={`/chat?${new URLSearchParams({ record: String(report.meta.id), code: report.meta.stock_code, ...(name !== report.meta.stock_code ? { name } : {}) })}`}
              className="inline-flex h-7 items-center rounded-md border border-line bg-surface px-2.5 text-xs font-medium text-accent hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent"
            >
              {texts.askDsa}
            </Link>
          )}
          {report.meta.id !== null ? <DeleteRecordButton t={texts} id={report.meta.id} /> : null}
        </div>
      </div>

      <div className="mt-4 space-y-3">
        {review ? (
          <MarketReviewView t={texts} report={report} markdown={markdown} />
        ) : (
          <StoredReportView
            t={t.analyzeUi}
            view={view}
            disclaimer={t.shell.disclaimer}
            trend={trend ? <StockTrend t={texts} trend={trend} zone={zone} /> : undefined}
          />
        )}
        <PaperForwardPanel t={t.paperUi} rows={paper} />
        {runs && report.meta.id !== null ? (
          <StockRunsPanel
            t={texts}
            items={runs.items}
            total={runs.total}
            currentId={report.meta.id}
            stockCode={report.meta.stock_code}
          />
        ) : null}
        {report.meta.id !== null ? (
          <div className="lg:w-1/3">
            <SharePanel t={texts} recordId={report.meta.id} name={name} />
          </div>
        ) : null}
        <details data-testid="run-details" className="group rounded-md border border-line bg-surface">
          <summary className="flex cursor-pointer list-none flex-wrap items-baseline gap-x-2 gap-y-0.5 px-3 py-2 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent [&::-webkit-details-marker]:hidden">
            <span
              aria-hidden="true"
              className="inline-block w-3 text-xs text-muted transition-transform group-open:rotate-90"
            >
              ▸
            </span>
            <span className="text-sm font-semibold">{texts.runDetailsTitle}</span>
            <span className="text-xs text-muted">{texts.runDetailsHint}</span>
          </summary>
          <div className="space-y-3 border-t border-line p-3">
            <dl className="flex min-w-0 flex-wrap gap-x-1 text-xs">
              <dt className="text-muted">
                {texts.traceId}
                {t.analyzeUi.colon}
              </dt>
              <dd data-testid="run-trace-id" className="min-w-0 font-mono break-all">
                {diagnostics.trace_id ?? "—"}
              </dd>
            </dl>
            <FlowGraph t={texts} flow={flow} />
            <div className="grid grid-cols-1 gap-3 lg:grid-cols-3">
              <div className="min-w-0 lg:col-span-2">
                <MarkdownPanel t={texts} content={markdown} />
              </div>
              <div className="min-w-0">
                <DiagnosticsPanel t={texts} diagnostics={diagnostics} />
              </div>
            </div>
          </div>
        </details>
      </div>
    </div>
  );
}
