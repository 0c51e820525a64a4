import Link from "next/link";
import { TableFrame } from "@/components/data/table-frame";
import { fmt } from "@/components/settings/format";
import { Badge } from "@/components/ui/badge";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import { CARD, CARD_ROW, FULL, LABELLED } from "@/components/ui/table-cards";
import type { TPaperRecord } from "@/lib/paper/schemas";
import { AccountActions } from "./account-actions";
import { PaperEquityChart } from "./equity-chart";
import { money, percent, type PaperTexts } from "./format";

const TD = "px-2 py-1.5 align-top tabular-nums";

// One paper account: its summary and actions, the equity at each close, its positions, and every fill with the
// signal and report that caused it.
export function AccountView({ t, record }: { t: PaperTexts; record: TPaperRecord }) {
  const a = record.account;
  const st = record.stats;
  const cell = (label: string, extra = "") => ({ className: cx(TD, LABELLED, extra), "data-label": label });
  return (
    <div className="space-y-3" data-testid="paper-account" data-account-id={a.id}>
      <Panel className="p-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-base font-semibold">{a.name}</h2>
          <Badge>{t.markets[a.market]}</Badge>
          <Badge>{a.status === "active" ? t.active : t.paused}</Badge>
          <span className="text-sm tabular-nums" data-testid="paper-return">
            {fmt(t.returnLabel, { value: percent(a.return_pct) })}
          </span>
          <div className="ml-auto">
            <AccountActions t={t} id={a.id} status={a.status} />
          </div>
        </div>
        <p className="mt-1 text-sm tabular-nums" data-testid="paper-summary">
          {fmt(t.summary, {
            start: a.start_session,
            cash: money(a.cash),
            equity: money(a.equity),
            currency: a.currency,
          })}
        </p>
        {record.days.length > 0 ? (
          <>
            <p className="mt-1 text-xs text-muted tabular-nums" data-testid="paper-stats">
              {fmt(t.statsLine, {
                sessions: st.sessions,
                ret: percent(st.return_pct),
                index: record.benchmark?.code ?? "—",
                bench: st.benchmark_return_pct === null ? t.noBenchmark : percent(st.benchmark_return_pct),
                dd: percent(st.max_drawdown_pct),
                exposure: `${st.exposure_pct.toFixed(1)}%`,
                turnover: st.turnover,
                trades: st.trades,
                wins: st.wins,
              })}
            </p>
            <p className="mt-1 text-sm" data-testid="paper-verdict" data-verdict={st.verdict}>
              {st.daily_excess && st.verdict !== "insufficient"
                ? fmt(t.verdicts[st.verdict], {
                    mean: `${st.daily_excess.mean_pct.toFixed(3)}%`,
                    low: `${st.daily_excess.ci95_low_pct.toFixed(3)}%`,
                    high: `${st.daily_excess.ci95_high_pct.toFixed(3)}%`,
                    n: st.daily_excess.n,
                  })
                : t.verdicts.insufficient}
            </p>
            <div className="mt-2">
              <PaperEquityChart
                points={record.days.map((d) => ({ session: d.session, equity: d.equity }))}
                benchmark={record.benchmark?.points ?? null}
                labels={{
                  equity: t.equityLabel,
                  benchmark: fmt(t.benchmarkLabel, { index: record.benchmark?.code ?? "" }),
                }}
                ariaLabel={fmt(t.chartLabel, { name: a.name })}
              />
            </div>
          </>
        ) : null}
      </Panel>
      <TableFrame
        id="paper-positions"
        title={t.positionsTitle}
        emptyText={t.noPositions}
        testId="paper-positions"
        minWidth="sm:min-w-[44rem]"
        columns={[t.colCode, t.colQuantity, t.colCost, t.colClose, t.colValue, t.colPnl, t.colStop, t.colTarget]}
        rows={a.positions.map((p) => (
          <tr key={p.code} data-testid="paper-position" data-code={p.code} className={CARD_ROW}>
            <td className={cx(TD, CARD, FULL, "font-mono")}>{p.code}</td>
            <td {...cell(t.colQuantity)}>{p.quantity}</td>
            <td {...cell(t.colCost)}>{p.avg_cost}</td>
            <td {...cell(t.colClose)}>{p.last_close}</td>
            <td {...cell(t.colValue)}>{money(p.market_value)}</td>
            <td {...cell(t.colPnl)}>{money(p.unrealized_pnl)}</td>
            <td {...cell(t.colStop)}>{p.stop_loss ?? "—"}</td>
            <td {...cell(t.colTarget)}>{p.target_price ?? "—"}</td>
          </tr>
        ))}
      />
      <TableFrame
        id="paper-trades"
        title={t.tradesTitle}
        emptyText={t.noTrades}
        testId="paper-trades"
        minWidth="sm:min-w-[44rem]"
        columns={[t.colCode, t.colEntry, t.colCost, t.colExit, t.colPrice, t.colQuantity, t.colReason, t.colResult]}
        rows={[...record.trades].reverse().map((tr, i) => (
          <tr
            key={`${tr.code}-${tr.exit_session}-${i}`}
            data-testid="paper-trade"
            data-code={tr.code}
            className={CARD_ROW}
          >
            <td className={cx(TD, CARD, FULL, "font-mono")}>{tr.code}</td>
            <td {...cell(t.colEntry)}>{tr.entry_session}</td>
            <td {...cell(t.colCost)}>{tr.entry_cost}</td>
            <td {...cell(t.colExit)}>{tr.exit_session}</td>
            <td {...cell(t.colPrice)}>{tr.exit_price}</td>
            <td {...cell(t.colQuantity)}>{tr.quantity}</td>
            <td {...cell(t.colReason)}>{t.reasons[tr.exit_reason as keyof typeof t.reasons] ?? tr.exit_reason}</td>
            <td {...cell(t.colResult)}>{percent(tr.return_pct)}</td>
          </tr>
        ))}
      />
      <TableFrame
        id="paper-fills"
        title={t.fillsTitle}
        emptyText={t.noFills}
        testId="paper-fills"
        minWidth="sm:min-w-[48rem]"
        columns={[t.colSession, t.colCode, t.colSide, t.colQuantity, t.colPrice, t.colFees, t.colReason, t.colSource]}
        rows={[...record.fills].reverse().map((f) => (
          <tr key={f.id} data-testid="paper-fill" data-code={f.code} data-side={f.side} className={CARD_ROW}>
            <td {...cell(t.colSession)}>{f.session}</td>
            <td {...cell(t.colCode, "font-mono")}>{f.code}</td>
            <td {...cell(t.colSide)}>{t.sides[f.side]}</td>
            <td {...cell(t.colQuantity)}>{f.quantity}</td>
            <td {...cell(t.colPrice)}>{f.price}</td>
            <td {...cell(t.colFees)}>{money(f.fees)}</td>
            <td {...cell(t.colReason)}>{t.reasons[f.reason]}</td>
            <td {...cell(t.colSource)}>
              <span className="inline-flex flex-wrap gap-x-2">
                <Link
                  href={`/signals?signal=${f.signal_id}`}
                  className="text-accent underline-offset-2 hover:underline"
                >
                  {fmt(t.signalLink, { id: f.signal_id })}
                </Link>
                {f.report_id !== null ? (
                  <Link
                    href={`/history/${f.report_id}`}
                    className="text-accent underline-offset-2 hover:underline"
                    data-testid="paper-fill-report"
                  >
                    {t.reportLink}
                  </Link>
                ) : null}
              </span>
            </td>
          </tr>
        ))}
      />
    </div>
  );
}
