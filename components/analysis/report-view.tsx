import type { ReactNode } from "react";
import { ZonedTime } from "@/components/shell/time-zone";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import { keyLevels, type KeyLevel, type KeyLevelKind } from "@/lib/history/key-levels";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { EvidenceCard } from "./evidence-card";
import { ScoreBreakdown } from "./score-breakdown";
import { LevelAlertButton } from "./level-alert";
import { ChartRange } from "./chart-range";
import { MA_LINES, type ChartPriceLine } from "./price-chart";
import { direction, type ReportView } from "./report-model";
import { MarketBadge } from "./stock-search-input";
import { actionTone, directionText, DOWN_TEXT, scoreFill, UP_TEXT } from "./tone";

type Texts = Dictionary["analyzeUi"];

function price(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "—" : value.toFixed(digits);
}

function signedPct(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return `${value > 0 ? "+" : ""}${value.toFixed(2)}%`;
}

function SectionTitle({ children, aside }: { children: ReactNode; aside?: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-2 border-b border-line px-3 py-2">
      <h2 className="text-sm font-semibold">{children}</h2>
      {aside ? <div className="min-w-0 text-xs text-muted">{aside}</div> : null}
    </div>
  );
}

function Stat({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cx("min-w-0", className)}>
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium tabular-nums">{children}</dd>
    </div>
  );
}

/**
 * Phones only: the headline's numbers (price, change, verdict, score) in one line that stays at the top
 * of the screen while the rest of the report scrolls (the app header scrolls away there; the bottom tab bar
 * navigates). It repeats the summary card for the eye, so it is hidden from assistive technology.
 */
function reportTitle(view: ReportView): string {
  return view.result.report.meta.stock_name ?? view.result.stock_name ?? view.result.report.meta.stock_code;
}

function verdictText(summary: ReportView["result"]["report"]["summary"]): string {
  return summary.action_label ?? summary.action ?? "—";
}

function PhoneHeadline({ view }: { view: ReportView }) {
  const { meta, summary } = view.result.report;
  const dir = direction(meta.change_pct);
  return (
    <div
      data-testid="report-sticky-headline"
      aria-hidden="true"
      className="sticky top-0 z-10 flex min-w-0 items-center gap-2 rounded-b-md border-x border-b border-line bg-surface/95 px-3 py-1.5 shadow-sm backdrop-blur-sm md:hidden"
    >
      <span className="min-w-0 truncate text-sm font-semibold">{reportTitle(view)}</span>
      <span data-testid="sticky-price" className={cx("text-sm font-semibold tabular-nums", directionText(dir))}>
        {price(meta.current_price)}
      </span>
      <span className={cx("text-xs font-medium tabular-nums", directionText(dir))}>{signedPct(meta.change_pct)}</span>
      <span
        className={cx(
          "ml-auto inline-flex shrink-0 items-center rounded border px-1.5 text-xs font-semibold",
          actionTone(summary.action),
        )}
      >
        {verdictText(summary)}
      </span>
      <span data-testid="sticky-score" className="shrink-0 text-sm font-semibold tabular-nums">
        {summary.sentiment_score ?? "—"}
      </span>
    </div>
  );
}

function SummaryCard({ t, view, trend }: { t: Texts; view: ReportView; trend?: ReactNode }) {
  const { meta, summary } = view.result.report;
  const dir = direction(meta.change_pct);
  const score = summary.sentiment_score;
  const core = view.dashboard?.core_conclusion;
  const position = view.llm?.core_conclusion.position_advice ?? core?.position_advice;
  const confidence = view.llm?.core_conclusion.confidence ?? core?.confidence;
  return (
    <Panel className="p-3">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <h2 className="text-lg leading-7 font-semibold" data-testid="report-name">
          {reportTitle(view)}
        </h2>
        <span className="font-mono text-sm text-muted">{meta.stock_code}</span>
        {t.reportLanguageNote[meta.report_language] ? (
          <span
            data-testid="report-language-note"
            className="rounded border border-line px-1.5 py-px text-xs text-muted"
          >
            {t.reportLanguageNote[meta.report_language]}
          </span>
        ) : null}
        {view.market ? <MarketBadge t={t} market={view.market} kind={meta.asset_type} /> : null}
        <span
          data-testid="action-badge"
          data-action={summary.action ?? ""}
          className={cx(
            "ml-auto inline-flex items-center rounded border px-2 py-0.5 text-sm font-semibold",
            actionTone(summary.action),
          )}
        >
          {verdictText(summary)}
        </span>
      </div>

      <div className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-[auto_1fr] sm:items-end sm:gap-6">
        <div>
          <div className="text-xs text-muted">{t.price}</div>
          <div className="flex items-baseline gap-2">
            <span
              data-testid="report-price"
              className={cx("text-3xl leading-9 font-semibold tabular-nums", directionText(dir))}
            >
              {price(meta.current_price)}
            </span>
            <span
              data-testid="report-change"
              data-direction={dir}
              className={cx("text-base font-medium tabular-nums", directionText(dir))}
            >
              {signedPct(meta.change_pct)}
            </span>
          </div>
          {view.asOf ? (
            <div data-testid="report-as-of" className="text-xs text-muted tabular-nums">
              {view.dataSource ? `${view.dataSource} · ` : ""}
              {fmt(
                view.asOf.basis === "close" || !view.asOf.live
                  ? t.asOfClose
                  : view.asOf.provisionalBar
                    ? t.asOfIntraday
                    : t.asOfQuote,
                { date: view.asOf.date },
              )}
            </div>
          ) : null}
        </div>
        <div className="min-w-0">
          <div className="flex items-baseline justify-between gap-2 text-xs text-muted">
            <span>{t.score}</span>
            {confidence ? (
              <span>
                {t.confidence}
                {t.colon}
                {t.confidenceLevels[confidence]}
              </span>
            ) : null}
          </div>
          <div className="mt-0.5 flex items-baseline gap-2">
            <span data-testid="sentiment-score" className="text-2xl leading-8 font-semibold tabular-nums">
              {score ?? "—"}
            </span>
            <span className="text-xs text-muted">/ 100</span>
            {summary.sentiment_label ? <span className="text-sm font-medium">{summary.sentiment_label}</span> : null}
          </div>
          <div
            role="meter"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={score ?? undefined}
            aria-label={fmt(t.scoreAria, { score: score ?? "—" })}
            className="relative mt-1 h-2 overflow-hidden rounded-full bg-subtle"
          >
            {score !== null ? (
              <div className={cx("h-full rounded-full", scoreFill(score))} style={{ width: `${score}%` }} />
            ) : null}
            {[20, 40, 60, 80].map((tick) => (
              <span key={tick} className="absolute top-0 h-full w-px bg-surface/80" style={{ left: `${tick}%` }} />
            ))}
          </div>
          <ScoreBreakdown
            t={t}
            score={score}
            action={verdictText(summary)}
            cell={view.structure}
            factors={view.scoreFactors}
          />
        </div>
      </div>

      {trend ? <div className="mt-3 border-t border-line pt-2">{trend}</div> : null}

      <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 border-t border-line pt-3 sm:grid-cols-2">
        <Stat label={t.operationAdvice}>
          <span className="font-normal">{summary.operation_advice ?? "—"}</span>
        </Stat>
        <Stat label={t.trendPrediction}>
          <span className="font-normal">{summary.trend_prediction ?? "—"}</span>
        </Stat>
        <Stat label={t.analysisSummary} className="sm:col-span-2">
          <span className="leading-6 font-normal">{summary.analysis_summary ?? "—"}</span>
        </Stat>
        {view.dashboard?.phase_decision ? (
          <Stat label={t.phase} className="sm:col-span-2">
            <span className="font-normal">{view.dashboard.phase_decision.immediate_action}</span>
          </Stat>
        ) : null}
        {position ? (
          <>
            <Stat label={t.noPosition}>
              <span className="font-normal">{position.no_position}</span>
            </Stat>
            <Stat label={t.hasPosition}>
              <span className="font-normal">{position.has_position}</span>
            </Stat>
          </>
        ) : null}
      </dl>
    </Panel>
  );
}

// Buy levels and breakouts take the "up" colour, stops and breakdowns "down", targets amber: in the list and on the chart.
const LEVEL_TONES: Record<KeyLevelKind, ChartPriceLine["tone"]> = {
  ideal_buy: "up",
  secondary_buy: "up",
  breakout: "up",
  stop_loss: "down",
  breakdown: "down",
  take_profit: "target",
};
const TONE_TEXT: Record<ChartPriceLine["tone"], string> = {
  up: UP_TEXT,
  down: DOWN_TEXT,
  target: "text-amber-700 dark:text-amber-400",
};

function levelLabel(t: Texts, level: KeyLevel): string {
  return { ideal_buy: t.idealBuy, secondary_buy: t.secondaryBuy, stop_loss: t.stopLoss, take_profit: t.takeProfit }[
    level.key
  ];
}

/** A watch call's levels are the breakout above and the breakdown below: named so on the chart and beside the list label. */
function kindLabel(t: Texts, level: KeyLevel): string | null {
  if (level.kind === "breakout") return t.breakoutLevel;
  if (level.kind === "breakdown") return t.breakdownLevel;
  return null;
}

/** The chart's lines: one per level that has a price, the very numbers the key levels list shows. */
function chartLines(t: Texts, levels: readonly KeyLevel[]): ChartPriceLine[] {
  return levels.flatMap((level) =>
    level.price === null
      ? []
      : [
          {
            id: level.key,
            price: level.price,
            title: kindLabel(t, level) ?? levelLabel(t, level),
            tone: LEVEL_TONES[level.kind],
          },
        ],
  );
}

function StrategyCard({ t, view, levels }: { t: Texts; view: ReportView; levels: readonly KeyLevel[] }) {
  const { meta } = view.result.report;
  const stockName = reportTitle(view);
  const plan = view.llm?.battle_plan.position_strategy ?? view.dashboard?.battle_plan.position_strategy;
  return (
    <Panel>
      <SectionTitle>{t.strategyTitle}</SectionTitle>
      <div className="grid grid-cols-2 gap-px bg-line">
        {levels.map((level) => {
          const label = levelLabel(t, level);
          const kind = kindLabel(t, level);
          // Each cell is its own term and value; the alert action sits after them, outside the <dl>.
          return (
            <div
              key={level.key}
              data-testid={`level-${level.key}`}
              data-kind={level.kind}
              data-price={level.price ?? undefined}
              className="min-w-0 bg-surface px-3 py-2"
            >
              <dl>
                <dt className="text-xs text-muted">
                  {label}
                  {kind ? <span className="font-medium text-fg"> · {kind}</span> : null}
                </dt>
                <dd
                  className={cx(
                    "mt-0.5 text-sm leading-5 font-semibold break-words tabular-nums",
                    level.text ? TONE_TEXT[LEVEL_TONES[level.kind]] : "text-muted",
                  )}
                >
                  {level.text ?? t.notAvailable}
                </dd>
              </dl>
              {level.price !== null && level.priceText !== null ? (
                <LevelAlertButton
                  key={`${view.result.query_id}:${level.key}`}
                  t={t}
                  target={meta.stock_code}
                  stockName={stockName}
                  label={kind ?? label}
                  price={level.price}
                  priceText={level.priceText}
                  direction={level.direction}
                />
              ) : null}
            </div>
          );
        })}
      </div>
      {plan ? (
        <div className="border-t border-line px-3 py-2 text-sm">
          <div className="text-xs text-muted">{t.positionStrategy}</div>
          <p className="mt-0.5 font-medium">{plan.suggested_position}</p>
          <p className="mt-1 text-xs leading-5 text-muted">{plan.entry_plan}</p>
          <p className="mt-1 text-xs leading-5 text-muted">{plan.risk_control}</p>
        </div>
      ) : null}
    </Panel>
  );
}

function IndicatorsCard({ t, view }: { t: Texts; view: ReportView }) {
  const ind = view.indicators;
  const perspective = view.dashboard?.data_perspective;
  if (!ind) return null;
  const biasDir = (v: number | null) => directionText(direction(v));
  const macd = ind.macd;
  return (
    <Panel>
      <SectionTitle aside={ind.trend ? t.trendStates[ind.trend.state] : null}>{t.indicatorsTitle}</SectionTitle>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2.5 px-3 py-3 sm:grid-cols-4 lg:grid-cols-2">
        <Stat label="MA5">{price(ind.ma.ma5)}</Stat>
        <Stat label="MA10">{price(ind.ma.ma10)}</Stat>
        <Stat label="MA20">{price(ind.ma.ma20)}</Stat>
        <Stat label="MA60">{price(ind.ma.ma60)}</Stat>
        <Stat label={t.biasMa5}>
          <span className={biasDir(ind.bias.ma5)}>{signedPct(ind.bias.ma5)}</span>
        </Stat>
        <Stat label={t.biasMa20}>
          <span className={biasDir(ind.bias.ma20)}>{signedPct(ind.bias.ma20)}</span>
        </Stat>
        <Stat label={t.volumeRatio}>
          {price(ind.volume.ratio)}
          {perspective?.volume_analysis.volume_status ? (
            <span className="ml-1 text-xs font-normal text-muted">{perspective.volume_analysis.volume_status}</span>
          ) : null}
        </Stat>
        <Stat label={t.turnover}>{ind.turnover_rate === null ? "—" : `${ind.turnover_rate.toFixed(2)}%`}</Stat>
        <Stat label={`${t.macd} DIF / DEA`}>{macd ? `${macd.dif.toFixed(2)} / ${macd.dea.toFixed(2)}` : "—"}</Stat>
        <Stat label={`${t.macd} HIST`}>
          {macd ? <span className={directionText(direction(macd.histogram))}>{macd.histogram.toFixed(2)}</span> : "—"}
          {macd?.cross ? (
            <span className="ml-1 text-xs font-normal text-muted">
              {fmt(t.macdCross[macd.cross], { bars: macd.cross_bars_ago ?? 0 })}
            </span>
          ) : null}
        </Stat>
        <Stat label={`${t.rsi} 6 / 12 / 24`} className="col-span-2">
          {[ind.rsi.rsi6, ind.rsi.rsi12, ind.rsi.rsi24].map((v) => price(v, 1)).join(" / ")}
        </Stat>
        <Stat label={t.support}>
          {ind.support.length
            ? ind.support
                .slice(0, 2)
                .map((l) => price(l.price))
                .join(" · ")
            : "—"}
        </Stat>
        <Stat label={t.resistance}>
          {ind.resistance.length
            ? ind.resistance
                .slice(0, 2)
                .map((l) => price(l.price))
                .join(" · ")
            : "—"}
        </Stat>
      </dl>
    </Panel>
  );
}

function ChartCard({ t, view, levels }: { t: Texts; view: ReportView; levels: readonly KeyLevel[] }) {
  const count = view.bars.length;
  const lines = chartLines(t, levels);
  return (
    <Panel>
      <SectionTitle
        aside={
          <span className="flex flex-wrap gap-x-2">
            {MA_LINES.map((line) => (
              <span key={line.period} className="inline-flex items-center gap-1">
                <span className="inline-block h-0.5 w-3" style={{ backgroundColor: line.color }} />
                MA{line.period}
              </span>
            ))}
          </span>
        }
      >
        {fmt(t.chartTitle, { count })}
      </SectionTitle>
      {count > 0 ? (
        <div className="px-1 pt-1">
          <ChartRange
            bars={view.bars}
            priceLines={lines}
            texts={{ range: t.chartRange, ranges: t.chartRanges, span: t.chartSpan, aria: t.chartAria }}
          />
          <p className="px-2 py-1.5 text-[11px] text-muted">
            {t.chartNote}
            {lines.length > 0 ? ` ${t.chartLevelsNote}` : null}
          </p>
        </div>
      ) : (
        <p className="px-3 py-6 text-sm text-muted">{t.chartEmpty}</p>
      )}
    </Panel>
  );
}

const CHECK_MARKS = { pass: "✓", warn: "!", fail: "✕", unknown: "?" } as const;
const CHECK_TONES = {
  pass: "border-accent/40 text-accent",
  warn: "border-amber-500/50 text-amber-700 dark:text-amber-400",
  fail: "border-fg/40 bg-subtle text-fg",
  unknown: "border-line text-muted",
} as const;

function ChecklistCard({ t, view }: { t: Texts; view: ReportView }) {
  if (!view.checklist || view.checklist.length === 0) return null;
  return (
    <Panel>
      <SectionTitle>{t.checklistTitle}</SectionTitle>
      <ul className="divide-y divide-line">
        {view.checklist.map((item, i) => (
          <li key={i} className="flex items-start gap-2 px-3 py-1.5 text-sm leading-5">
            <span
              aria-label={t.checkStatus[item.status]}
              title={t.checkStatus[item.status]}
              className={cx(
                "mt-0.5 inline-flex size-4 shrink-0 items-center justify-center rounded border text-[10px] font-bold",
                CHECK_TONES[item.status],
              )}
            >
              {CHECK_MARKS[item.status]}
            </span>
            <span className="min-w-0">{item.text}</span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

function RisksCard({ t, view }: { t: Texts; view: ReportView }) {
  if (view.risks === null) return null;
  return (
    <Panel>
      <SectionTitle>{t.risksTitle}</SectionTitle>
      {view.risks.length > 0 ? (
        <ul className="list-disc space-y-1 py-2 pr-3 pl-7 text-sm leading-5 marker:text-amber-500">
          {view.risks.map((risk, i) => (
            <li key={i}>{risk}</li>
          ))}
        </ul>
      ) : (
        <p className="px-3 py-2 text-sm text-muted">{t.noRisks}</p>
      )}
    </Panel>
  );
}

function NewsCard({ t, view }: { t: Texts; view: ReportView }) {
  const { details } = view.result.report;
  return (
    <Panel>
      <SectionTitle>{t.newsTitle}</SectionTitle>
      {view.newsItems.length > 0 ? (
        <ul className="divide-y divide-line">
          {view.newsItems.map((item, i) => (
            <li key={i} className="px-3 py-1.5 text-sm leading-5">
              {item.url ? (
                <a
                  href={item.url}
                  target="_blank"
                  rel="noreferrer noopener"
                  className="text-accent underline-offset-2 hover:underline"
                >
                  {item.title}
                </a>
              ) : (
                <span>{item.title}</span>
              )}
              {item.snippet ? <p className="text-xs text-muted">{item.snippet}</p> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p data-testid="empty-news" className="px-3 py-2 text-sm text-muted">
          {details.empty_news_disclosure ?? "—"}
        </p>
      )}
    </Panel>
  );
}

// The time in the display zone with its label, as everywhere else in the UI: the same on the server and in the browser.
function Provenance({ t, view, disclaimer }: { t: Texts; view: ReportView; disclaimer: string }) {
  const { meta } = view.result.report;
  const when = <ZonedTime value={view.result.created_at} />;
  const reportType = meta.report_type as keyof Texts["reportTypes"];
  return (
    <div className="rounded-md border border-line px-3 py-2 text-xs leading-5 text-muted">
      <dl className="flex flex-wrap gap-x-4 gap-y-0.5">
        <div className="flex gap-1">
          <dt>
            {t.dataSource}
            {t.colon}
          </dt>
          <dd data-testid="data-source" className="font-medium text-fg">
            {view.dataSource ?? "—"}
          </dd>
        </div>
        <div className="flex gap-1">
          <dt>
            {t.lastBar}
            {t.colon}
          </dt>
          <dd data-testid="last-bar-date" className="font-mono text-fg">
            {view.indicators?.last_bar_date ?? "—"}
          </dd>
        </div>
        <div className="flex gap-1">
          <dt>
            {t.model}
            {t.colon}
          </dt>
          <dd data-testid="model-used" className="font-medium text-fg">
            {meta.model_used ?? t.ruleBased}
          </dd>
        </div>
        {view.phase ? (
          <div className="flex gap-1">
            <dt>
              {t.phase}
              {t.colon}
            </dt>
            <dd className="text-fg">{t.phases[view.phase.phase]}</dd>
          </div>
        ) : null}
        <div className="flex gap-1">
          <dt>
            {t.reportTypeUsed}
            {t.colon}
          </dt>
          <dd className="text-fg">{t.reportTypes[reportType] ?? meta.report_type}</dd>
        </div>
        <div className="flex gap-1">
          <dt>
            {t.generatedAt}
            {t.colon}
          </dt>
          <dd className="text-fg">{when}</dd>
        </div>
        <div className="flex min-w-0 gap-1">
          <dt>
            {t.queryId}
            {t.colon}
          </dt>
          <dd className="truncate font-mono">{view.result.query_id}</dd>
        </div>
      </dl>
      <p data-testid="report-disclaimer" className="mt-1.5">
        {disclaimer}
      </p>
    </div>
  );
}

/**
 * The rendered AnalysisReport: numbers first (the headline with the stock's trend when the page has one, and the key
 * levels), the checklist and risks right under the headline, then the chart with the levels drawn on it, the
 * indicators and the evidence.
 */
export function AnalysisReportView({
  t,
  view,
  disclaimer,
  trend,
}: {
  t: Texts;
  view: ReportView;
  disclaimer: string;
  trend?: ReactNode;
}) {
  const levels = keyLevels(view.result.report);
  const hasChecklist = Boolean(view.checklist?.length);
  const hasRisks = view.risks !== null;
  return (
    <article
      aria-label={view.result.report.meta.stock_name ?? view.result.stock_code}
      lang={view.result.report.meta.report_language === "en" ? "en" : "zh-CN"}
      className="space-y-3"
    >
      {view.isSample ? (
        <div
          role="note"
          data-testid="sample-banner"
          className="rounded-md border border-amber-500/40 bg-amber-50 px-3 py-2 text-sm leading-5 font-medium text-amber-900 dark:border-amber-400/30 dark:bg-amber-950/50 dark:text-amber-200"
        >
          {t.sampleBanner}
        </div>
      ) : null}
      <PhoneHeadline view={view} />
      <div className="grid grid-cols-1 gap-3 lg:grid-flow-row-dense lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          <SummaryCard t={t} view={view} trend={trend} />
        </div>
        <div className="min-w-0">
          <StrategyCard t={t} view={view} levels={levels} />
        </div>
        {view.evidence || view.dataQuality ? (
          <div className="min-w-0 lg:col-span-3">
            <EvidenceCard t={t} evidence={view.evidence} quality={view.dataQuality} />
          </div>
        ) : null}
        {hasChecklist || hasRisks ? (
          <div
            data-testid="report-checks"
            className={cx("grid min-w-0 grid-cols-1 gap-3 lg:col-span-2", hasChecklist && hasRisks && "sm:grid-cols-2")}
          >
            <ChecklistCard t={t} view={view} />
            <RisksCard t={t} view={view} />
          </div>
        ) : null}
        <div className="min-w-0 lg:col-span-2">
          <ChartCard t={t} view={view} levels={levels} />
        </div>
        {/* Beside the checks and the chart on a wide screen (dense flow fills the column), after the chart on a phone. */}
        <div className={cx("min-w-0", (hasChecklist || hasRisks) && "lg:row-span-2")}>
          <IndicatorsCard t={t} view={view} />
        </div>
        <div className="min-w-0 lg:col-span-3">
          <NewsCard t={t} view={view} />
        </div>
      </div>
      <Provenance t={t} view={view} disclaimer={disclaimer} />
    </article>
  );
}
