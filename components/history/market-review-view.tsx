import { Panel } from "@/components/ui/panel";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { TAnalysisReport } from "@/lib/history/schemas";
import { sentimentBand } from "@/lib/i18n/labels";
import { storedPayloadOf } from "@/lib/market-review/stored-payload";
import { MarkdownText } from "./markdown-text";

type Texts = Dictionary["historyUi"];

/**
 * The review's outlook in the UI language, from the stance code of its stored payload; a record
 * without one (stored before the payload carried it) shows its stored words.
 */
function outlookText(t: Texts, report: TAnalysisReport): string | null {
  const outlook = storedPayloadOf(report.details.context_snapshot, report.details.raw_result)?.outlook;
  const stance = outlook && typeof outlook === "object" ? (outlook as { stance?: unknown }).stance : undefined;
  if (typeof stance === "string" && Object.hasOwn(t.stances, stance))
    return t.stances[stance as keyof Texts["stances"]];
  return report.summary.trend_prediction;
}

// A market review (report_type market_review) has no stock, levels or chart: its summary, the review text as
// written (the record's Markdown, rendered, which lists the news it drew on with their links).
export function MarketReviewView({
  t,
  report,
  markdown,
}: {
  t: Texts;
  report: TAnalysisReport;
  markdown: string | null;
}) {
  const { summary } = report;
  const band = sentimentBand(summary.sentiment_score);
  const outlook = outlookText(t, report);
  return (
    <article aria-label={t.marketReview} className="grid grid-cols-1 gap-3 lg:grid-cols-3" data-testid="market-review">
      <div className="min-w-0 space-y-3 lg:col-span-2">
        <Panel className="px-4 py-3">
          {markdown ? (
            <MarkdownText source={markdown} />
          ) : (
            <p className="text-sm text-muted">{t.markdownUnavailable}</p>
          )}
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
                  {band ? <span className="ml-2 text-sm font-medium">{t.sentiments[band]}</span> : null}
                </dd>
              </div>
            ) : null}
            {outlook ? (
              <div>
                <dt className="text-xs text-muted">{t.reviewTrend}</dt>
                <dd className="font-medium">{outlook}</dd>
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
