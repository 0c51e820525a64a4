import Link from "next/link";
import { directionText } from "@/components/analysis/tone";
import { formatSignedPct } from "@/components/history/format";
import { Panel } from "@/components/ui/panel";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import type { TReportEvalItem, TReportEvalPerformance } from "@/lib/report-eval/schemas";
import { ReportEvalRun } from "./report-eval-run";

// The "how did my reports do" half of the Backtest page (docs/api.md §12.4): the stored evaluations of the
// reports DSA wrote, beside the engine replay above. Every figure is the API's (/api/v1/backtest/*).

type Props = {
  t: Dictionary["reportsUi"];
  actionLabels: Readonly<Record<string, string>>;
  window: number;
  performance: TReportEvalPerformance | null;
  items: TReportEvalItem[];
};

function rate(value: number | null): string {
  return value === null ? "—" : `${value.toFixed(1)}%`;
}

function tone(value: number | null): "up" | "down" | "flat" {
  return value === null || value === 0 ? "flat" : value > 0 ? "up" : "down";
}

export function ReportEvalPanel({ t, actionLabels, window, performance, items }: Props) {
  const stats: [string, string, string][] = performance
    ? [
        ["completed", t.completed, String(performance.completed_count)],
        ["insufficient", t.insufficient, String(performance.insufficient_count)],
        ["win-rate", t.winRate, rate(performance.win_rate_pct)],
        ["accuracy", t.accuracy, rate(performance.direction_accuracy_pct)],
        ["avg-return", t.avgReturn, formatSignedPct(performance.avg_stock_return_pct)],
        ["avg-simulated", t.avgSimulated, formatSignedPct(performance.avg_simulated_return_pct)],
        ["stop-rate", t.stopRate, rate(performance.stop_loss_trigger_rate)],
        ["target-rate", t.targetRate, rate(performance.take_profit_trigger_rate)],
      ]
    : [];
  return (
    <Panel className="space-y-4 p-4">
      <section aria-labelledby="report-eval-title" data-testid="report-eval">
        <h2 id="report-eval-title" className="text-lg font-semibold">
          {t.title}
        </h2>
        <p className="mt-1 max-w-3xl text-sm text-muted">{t.intro}</p>
        <div className="mt-3">
          <ReportEvalRun t={t} window={window} />
        </div>
        {!performance ? (
          <p className="mt-3 text-sm text-muted" data-testid="report-eval-empty">
            {t.empty}
          </p>
        ) : (
          <>
            <dl className="mt-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4" data-testid="report-eval-stats">
              {stats.map(([key, label, value]) => (
                <div key={key} className="rounded border border-line px-3 py-2" data-stat={key}>
                  <dt className="text-xs text-muted">{label}</dt>
                  <dd className="font-semibold tabular-nums">{value}</dd>
                </div>
              ))}
            </dl>
            <div className="mt-4 overflow-x-auto">
              <table className="w-full border-collapse text-sm" data-testid="report-eval-results">
                <thead>
                  <tr className="border-b border-line text-left text-xs text-muted">
                    <th scope="col" className="px-2 py-1 font-medium">
                      {t.colDate}
                    </th>
                    <th scope="col" className="px-2 py-1 font-medium">
                      {t.colStock}
                    </th>
                    <th scope="col" className="px-2 py-1 font-medium">
                      {t.colAction}
                    </th>
                    <th scope="col" className="px-2 py-1 text-right font-medium">
                      {t.colReturn}
                    </th>
                    <th scope="col" className="px-2 py-1 font-medium">
                      {t.colOutcome}
                    </th>
                    <th scope="col" className="px-2 py-1 text-right font-medium">
                      {t.colSimulated}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((item) => (
                    <tr
                      key={item.analysis_history_id}
                      className="border-b border-line/60 last:border-b-0"
                      data-history-id={item.analysis_history_id}
                    >
                      <td className="px-2 py-1 tabular-nums">{item.analysis_date}</td>
                      <td className="px-2 py-1">
                        <Link
                          href={`/history/${encodeURIComponent(item.query_id)}`}
                          className="font-medium tabular-nums hover:underline"
                        >
                          {item.code}
                        </Link>{" "}
                        <span className="text-muted">{item.stock_name ?? ""}</span>
                      </td>
                      <td className="px-2 py-1">{item.action ? (actionLabels[item.action] ?? item.action) : "—"}</td>
                      <td className={`px-2 py-1 text-right tabular-nums ${directionText(tone(item.stock_return_pct))}`}>
                        {formatSignedPct(item.stock_return_pct)}
                      </td>
                      <td className="px-2 py-1">{item.outcome ? t.outcomes[item.outcome] : t.outcomes.pending}</td>
                      <td className="px-2 py-1 text-right tabular-nums">
                        {formatSignedPct(item.simulated_return_pct)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
    </Panel>
  );
}
