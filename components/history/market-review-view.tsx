import { Panel } from "@/components/ui/panel";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { TAnalysisReport } from "@/lib/history/schemas";
import { MarkdownText } from "./markdown-text";

type Texts = Dictionary["historyUi"];

// A market review (report_type market_review) has no stock, levels or chart: its summary, the review text as
// written (the record's Markdown, rendered, which lists the news it drew on with their links).
export function MarketReviewView({ t, report, markdown }: { t: Texts; report: TAnalysisReport; markdown: string | null }) {
  const { summary } = report;
  return (
    <article aria-label={t.marketReview} className="grid grid-cols-1 gap-3 lg:grid-cols-3" data-testid="market-review">
      <div className="min-w-0 space-y-3 lg:col-span-2">
        <Panel className="px-4 py-3">
          {markdown ? <MarkdownText source={markdown} /> : <p className="text-sm text-muted">{t.markdownUnavailable}</p>}
        </Panel>
      </div>
      <div className="min-w-0 space-y-3">
        <Panel>
          <div className="border-b border-line px-3 py-2">
            <h2 className="text-sm font-semibold">{t.reviewSummary}</h2>
          </div>
          <dl className="space-y-2 px-3 py-2 text-sm">
            {summary.sentiment_score !== null ? (
              <div>
                <dt className="text-xs text-muted">{t.colScore}</dt>
                <dd className="text-2xl font-semibold tabular-nums" data-testid="review-score">
                  {summary.sentiment_score}
                  <span className="ml-1 text-xs font-normal text-muted">/ 100</span>
                  {summary.sentiment_label ? <span className="ml-2 text-sm font-medium">{summary.sentiment_label}</span> : null}
                </dd>
              </div>
            ) : null}
            {summary.trend_prediction ? (
              <div>
                <dt className="text-xs text-muted">{t.reviewTrend}</dt>
                <dd className="font-medium">{summary.trend_prediction}</dd>
              </div>
            ) : null}
            {summary.analysis_summary ? (
              <div>
                <dt className="text-xs text-muted">{t.colSummary}</dt>
                <dd className="leading-6">{summary.analysis_summary}</dd>
              </div>
            ) : null}
          </dl>
        </Panel>
      </div>
    </article>
  );
}
