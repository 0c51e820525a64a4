import { TableFrame } from "@/components/data/table-frame";
import { fmt } from "@/components/settings/format";
import { ZonedTime } from "@/components/shell/time-zone";
import { Badge } from "@/components/ui/badge";
import { cx } from "@/components/ui/cx";
import { MiniChart } from "@/components/market/mini-chart";
import { Panel } from "@/components/ui/panel";
import { CARD, CARD_ROW, FULL, LABELLED, WIDE } from "@/components/ui/table-cards";
import { METRIC_TEXT } from "@/lib/screening/metrics";
import type { TScreenResponse } from "@/lib/screening/schemas";
import { AnalyseAll, CandidateActions } from "./candidate-actions";
import { marketText, type ScreeningTexts } from "./format";

const TD = "px-2 py-1.5 align-top";
/** The analyze API takes at most this many codes in one request. */
const ANALYSE_AT_ONCE = 50;

const QUALITY_TONE: Record<TScreenResponse["quality_status"], string> = {
  verified:
    "border-emerald-600/30 bg-emerald-50 text-emerald-800 dark:border-emerald-400/30 dark:bg-emerald-950/50 dark:text-emerald-300",
  degraded:
    "border-amber-500/40 bg-amber-50 text-amber-800 dark:border-amber-400/30 dark:bg-amber-950/60 dark:text-amber-300",
  insufficient: "border-red-500/40 bg-red-50 text-red-800 dark:border-red-400/30 dark:bg-red-950/50 dark:text-red-200",
};

function scoreText(run: TScreenResponse["candidates"][number], language: "zh" | "en"): string {
  const text = METRIC_TEXT[run.score_metric];
  if (run.score === null) return `${text[language]} —`;
  return `${text[language]} ${run.score}${text.unit === "%" ? "%" : ""}`;
}

// One stored run: what was screened and how much of it could be read, the warnings, the candidates with the
// figures that made each pass, and what to do with them.
export function RunView({
  t,
  run,
  strategyName,
  language,
}: {
  t: ScreeningTexts;
  run: TScreenResponse;
  strategyName: string;
  language: "zh" | "en";
}) {
  const summary = fmt(t.summary, {
    strategy: strategyName,
    market: marketText(t, run.market),
    universe: run.snapshot_count,
    source: run.snapshot_source,
    loaded: run.bars_loaded_count,
    passed: run.after_filter_count,
  });
  return (
    <div className="space-y-3" data-testid="screening-run" data-run-id={run.run_id}>
      <Panel className="p-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-sm font-semibold">{t.resultTitle}</h2>
          <span
            data-testid="run-quality"
            data-status={run.quality_status}
            className={cx(
              "inline-flex items-center rounded border px-1.5 py-0.5 text-xs leading-4 font-medium",
              QUALITY_TONE[run.quality_status],
            )}
          >
            {t.quality[run.quality_status]}
          </span>
          <span className="text-xs text-muted">{fmt(t.qualityScore, { score: run.quality_score })}</span>
          {run.is_sample_data ? <Badge>{t.sample}</Badge> : null}
          <time dateTime={run.created_at} className="ml-auto text-xs text-muted tabular-nums">
            <ZonedTime value={run.created_at} style="short" />
          </time>
        </div>
        <p className="mt-1 text-sm" data-testid="run-summary">
          {summary}
        </p>
        {run.warnings.length > 0 ? (
          <ul
            className="mt-2 list-disc space-y-0.5 pl-5 text-xs text-amber-800 dark:text-amber-300"
            data-testid="run-warnings"
          >
            {run.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        ) : null}
        {run.llm_failure_reason ? (
          <p className="mt-2 text-xs text-amber-800 dark:text-amber-300" data-testid="run-llm-failed">
            {fmt(t.llmFailed, { reason: run.llm_failure_reason })}
          </p>
        ) : null}
        {run.source_errors.length > 0 ? (
          <details className="mt-2 text-xs text-muted">
            <summary>{t.sourceErrors}</summary>
            <ul className="mt-1 space-y-0.5">
              {run.source_errors.map((e, i) => (
                <li key={i} className="wrap-anywhere">
                  {e}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        {run.candidates.length > 0 ? (
          <div className="mt-2">
            <AnalyseAll t={t} codes={run.candidates.slice(0, ANALYSE_AT_ONCE).map((c) => c.code)} language={language} />
          </div>
        ) : null}
      </Panel>
      {run.llm_ranked ? (
        <div data-testid="run-llm">
          <Panel className="p-3">
            <h2 className="text-sm font-semibold">{fmt(t.llmTitle, { model: run.llm_model_used ?? "" })}</h2>
            <dl className="mt-1 grid gap-1 text-sm sm:grid-cols-[9rem_1fr]">
              {(
                [
                  [t.llmMarketView, run.llm_market_view],
                  [t.llmSelection, run.llm_selection_logic],
                  [t.llmRisk, run.llm_portfolio_risk],
                ] as const
              ).map(([label, text]) => (
                <div key={label} className="contents">
                  <dt className="text-xs font-medium text-muted">{label}</dt>
                  <dd className="wrap-anywhere">{text}</dd>
                </div>
              ))}
            </dl>
          </Panel>
        </div>
      ) : null}
      <TableFrame
        id="screening-candidates"
        title={t.candidatesTitle}
        emptyText={t.noCandidates}
        testId="screening-candidates"
        minWidth="sm:min-w-[48rem]"
        columns={[t.colRank, t.colStock, t.colScore, t.colReasons, t.colBar, t.colActions]}
        rows={run.candidates.map((c) => (
          <tr key={c.code} data-testid="candidate-row" data-code={c.code} className={CARD_ROW}>
            <td className={cx(TD, CARD, "text-xs text-muted tabular-nums")} data-testid="candidate-rank">
              {c.rank}
              {c.rule_rank !== undefined ? (
                <span className="block" data-testid="candidate-rule-rank">
                  {fmt(t.ruleRank, { rank: c.rule_rank })}
                </span>
              ) : null}
            </td>
            <td className={cx(TD, CARD, "whitespace-nowrap")} data-testid="candidate-stock">
              <span className="font-mono text-sm">{c.code}</span>
              {c.name ? <span className="ml-1.5 text-sm">{c.name}</span> : null}
              <MiniChart
                closes={c.closes}
                label={fmt(t.sparkline, { name: c.name ?? c.code, days: c.closes.length })}
                className="mt-1 h-6 w-28"
              />
            </td>
            <td
              className={cx(TD, LABELLED, WIDE, "text-xs tabular-nums")}
              data-label={t.colScore}
              data-testid="candidate-score"
            >
              {scoreText(c, language)}
            </td>
            <td className={cx(TD, LABELLED, FULL, "text-xs")} data-label={t.colReasons} data-testid="candidate-reasons">
              <ul className="space-y-0.5">
                {c.reasons.map((r, i) => (
                  <li key={i} className="tabular-nums">
                    {r}
                  </li>
                ))}
              </ul>
            </td>
            <td
              className={cx(TD, LABELLED, "text-xs whitespace-nowrap tabular-nums")}
              data-label={t.colBar}
              data-testid="candidate-bar"
            >
              {c.last_bar_date}
              <span className="ml-1 font-mono text-muted">{c.bars_source}</span>
              {c.stale ? (
                <span className="ml-1.5" data-testid="candidate-stale">
                  <Badge>{t.stale}</Badge>
                </span>
              ) : null}
              {c.is_sample_data ? (
                <span className="ml-1.5">
                  <Badge>{t.sample}</Badge>
                </span>
              ) : null}
            </td>
            <td className={cx(TD, CARD, FULL)} data-testid="candidate-actions">
              <CandidateActions t={t} code={c.code} language={language} />
            </td>
          </tr>
        ))}
      />
    </div>
  );
}
