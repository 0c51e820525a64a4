import type { ReactNode } from "react";
import { FIELD_BASE, LABEL, PRIMARY_BUTTON } from "@/components/alerts/format";
import { DOWN_TEXT } from "@/components/analysis/tone";
import { fmt } from "@/components/settings/format";
import { ZonedTime } from "@/components/shell/time-zone";
import { cx } from "@/components/ui/cx";
import { codeLabel } from "@/lib/i18n/labels";
import type { TPortfolioRisk } from "@/lib/portfolio/risk-schema";
import { marketLabel, money, pct, price, type PortfolioTexts } from "./format";
import { ValueChart } from "./value-chart";

// The risk panel: the report of GET /api/v1/portfolio/risk for the page's account, as_of and cost method (read on
// the server with the same function), so every number here is the API's number.

export type CostMethod = TPortfolioRisk["cost_method"];

function SubTitle({ children, aside }: { children: ReactNode; aside?: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-2 border-b border-line px-3 py-1.5">
      <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">{children}</h3>
      {aside ? <span className="min-w-0 truncate text-xs text-muted">{aside}</span> : null}
    </div>
  );
}

export function RiskControls({
  t,
  costMethod,
  asOf,
  hrefFor,
  hidden,
}: {
  t: PortfolioTexts;
  costMethod: CostMethod;
  asOf: string;
  hrefFor: (method: CostMethod) => string;
  hidden: Record<string, string>;
}) {
  const methods: CostMethod[] = ["fifo", "avg"];
  return (
    <div className="flex flex-wrap items-end gap-3" aria-label={t.riskControls} role="group">
      <div className="flex flex-col gap-1">
        <span className="text-xs font-medium text-muted">{t.costMethod}</span>
        <nav
          aria-label={t.costMethod}
          className="inline-flex h-8 shrink-0 items-center rounded-md border border-line bg-subtle p-0.5"
        >
          {methods.map((m) => (
            <a
              key={m}
              href={hrefFor(m)}
              aria-current={m === costMethod ? "page" : undefined}
              className={cx(
                "inline-flex h-6 items-center rounded px-2.5 text-sm font-medium",
                "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent",
                m === costMethod ? "bg-surface text-fg shadow-sm dark:bg-line" : "text-muted hover:text-fg",
              )}
            >
              {t.costMethods[m]}
            </a>
          ))}
        </nav>
      </div>
      <form method="get" action="/portfolio" className="flex items-end gap-2">
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label className={LABEL}>
          {t.asOf}
          <input type="date" name="as_of" defaultValue={asOf} required className={cx(FIELD_BASE, "w-40")} />
        </label>
        <button type="submit" className={PRIMARY_BUTTON}>
          {t.applyAsOf}
        </button>
      </form>
    </div>
  );
}

function Kpi({
  id,
  label,
  value,
  raw,
  detail,
  alert,
}: {
  id: string;
  label: string;
  value: string;
  raw: number | null;
  detail?: string;
  alert?: boolean;
}) {
  return (
    <div
      className="min-w-0"
      data-testid={`risk-kpi-${id}`}
      data-value={raw ?? ""}
      data-alert={alert ? "true" : undefined}
    >
      <dt className="truncate text-xs text-muted">{label}</dt>
      <dd
        className={cx("mt-0.5 text-lg font-semibold tabular-nums", alert && "text-amber-700 dark:text-amber-400")}
        data-testid="kpi-value"
      >
        {value}
      </dd>
      {detail ? <dd className="truncate text-xs text-muted tabular-nums">{detail}</dd> : null}
    </div>
  );
}

export function RiskKpis({ t, risk }: { t: PortfolioTexts; risk: TPortfolioRisk }) {
  const c = risk.concentration;
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-3 px-3 py-3 sm:grid-cols-3 lg:grid-cols-6" data-testid="risk-kpis">
      <Kpi
        id="total"
        label={fmt(t.kpiTotal, { currency: risk.currency })}
        value={money(c.total_market_value)}
        raw={c.total_market_value}
      />
      <Kpi
        id="top-weight"
        label={t.kpiTopWeight}
        value={pct(c.top_weight_pct)}
        raw={c.top_weight_pct}
        detail={c.top_positions[0]?.symbol}
        alert={c.alert}
      />
      <Kpi id="hhi" label={t.kpiHhi} value={c.hhi.toFixed(4)} raw={c.hhi} />
      <Kpi
        id="volatility"
        label={t.kpiVolatility}
        value={risk.volatility_pct === null ? t.notEnoughData : pct(risk.volatility_pct)}
        raw={risk.volatility_pct}
      />
      <Kpi
        id="var"
        label={t.kpiVar}
        value={risk.var_95_1d ? money(risk.var_95_1d.amount) : t.notEnoughData}
        raw={risk.var_95_1d?.amount ?? null}
        detail={
          risk.var_95_1d
            ? `${pct(risk.var_95_1d.pct, 3)} · ${fmt(t.kpiVarObservations, { observations: risk.var_95_1d.observations })}`
            : undefined
        }
      />
      <Kpi
        id="max-drawdown"
        label={t.kpiMaxDrawdown}
        value={pct(risk.drawdown.max_drawdown_pct)}
        raw={risk.drawdown.max_drawdown_pct}
        detail={fmt(t.kpiCurrentDrawdown, { pct: pct(risk.drawdown.current_drawdown_pct) })}
        alert={risk.drawdown.alert}
      />
    </dl>
  );
}

function TopPositions({ t, risk }: { t: PortfolioTexts; risk: TPortfolioRisk }) {
  const rows = risk.concentration.top_positions;
  return (
    <div className="min-w-0">
      <SubTitle aside={fmt(t.kpiLimit, { limit: pct(risk.thresholds.concentration_alert_pct) })}>
        {t.topPositionsTitle}
      </SubTitle>
      {rows.length === 0 ? (
        <p className="px-3 py-3 text-sm text-muted">{t.exposureEmpty}</p>
      ) : (
        <ul className="divide-y divide-line" data-testid="top-positions">
          {rows.map((r) => (
            <li
              key={r.symbol}
              className="flex items-baseline justify-between gap-3 px-3 py-1.5 text-sm"
              data-testid="top-position-row"
              data-code={r.symbol}
              data-weight={r.weight_pct}
            >
              <span className="font-medium tabular-nums">{r.symbol}</span>
              <span className={cx("tabular-nums", r.is_alert && "font-semibold text-amber-700 dark:text-amber-400")}>
                {pct(r.weight_pct)} <span className="text-xs font-normal text-muted">{money(r.market_value_base)}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ExposureBars({
  title,
  rows,
  label,
  testId,
  empty,
}: {
  title: string;
  rows: TPortfolioRisk["exposure"]["by_market"];
  label: (key: string) => string;
  testId: string;
  empty: string;
}) {
  return (
    <div className="min-w-0">
      <SubTitle>{title}</SubTitle>
      {rows.length === 0 ? (
        <p className="px-3 py-3 text-sm text-muted">{empty}</p>
      ) : (
        <ul className="divide-y divide-line" data-testid={testId}>
          {rows.map((r) => (
            <li
              key={r.key}
              className="px-3 py-2"
              data-testid="exposure-row"
              data-key={r.key}
              data-weight={r.weight_pct}
            >
              <div className="flex items-baseline justify-between gap-3 text-sm">
                <span className="font-medium">{label(r.key)}</span>
                <span className="tabular-nums">
                  {pct(r.weight_pct)} <span className="text-xs text-muted">{money(r.market_value_base)}</span>
                </span>
              </div>
              <div className="mt-1 h-1.5 rounded-full bg-subtle" aria-hidden="true">
                <div
                  className="h-full rounded-full bg-accent"
                  style={{ width: `${Math.min(100, Math.max(0, r.weight_pct)).toFixed(2)}%` }}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function RiskDetails({ t, risk }: { t: PortfolioTexts; risk: TPortfolioRisk }) {
  const th = risk.thresholds;
  const near = th.stop_loss_alert_pct * th.stop_loss_near_ratio;
  return (
    <div className="grid grid-cols-1 border-t border-line lg:grid-cols-[minmax(0,1.6fr)_minmax(0,1fr)]">
      <div className="min-w-0 lg:border-r lg:border-line">
        <SubTitle aside={risk.currency}>{fmt(t.chartTitle, { days: th.lookback_days })}</SubTitle>
        <ValueChart t={t} drawdown={risk.drawdown} />
      </div>
      <div className="min-w-0 border-t border-line lg:border-t-0">
        <TopPositions t={t} risk={risk} />
        <ExposureBars
          title={`${t.exposureTitle} · ${t.byMarket}`}
          rows={risk.exposure.by_market}
          label={(k) => marketLabel(t, k)}
          testId="exposure-market"
          empty={t.exposureEmpty}
        />
        <ExposureBars
          title={`${t.exposureTitle} · ${t.byCurrency}`}
          rows={risk.exposure.by_currency}
          label={(k) => k}
          testId="exposure-currency"
          empty={t.exposureEmpty}
        />
      </div>
      <div className="min-w-0 border-t border-line lg:border-r">
        <SubTitle aside={fmt(t.stopLossHint, { near: pct(near), limit: pct(th.stop_loss_alert_pct) })}>
          {t.stopLossTitle}
        </SubTitle>
        {risk.stop_loss.items.length === 0 ? (
          <p className="px-3 py-3 text-sm text-muted" data-testid="stop-loss-empty">
            {t.stopLossEmpty}
          </p>
        ) : (
          <ul className="divide-y divide-line" data-testid="stop-loss">
            {risk.stop_loss.items.map((item) => (
              <li
                key={`${item.account_id}:${item.symbol}`}
                className="flex flex-wrap items-baseline justify-between gap-2 px-3 py-1.5 text-sm"
                data-testid="stop-loss-row"
              >
                <span className="font-medium tabular-nums">{item.symbol}</span>
                <span className="text-xs text-muted tabular-nums">
                  {price(item.avg_cost)} → {price(item.last_price)}
                </span>
                <span className={cx("tabular-nums", DOWN_TEXT)}>-{pct(item.loss_pct)}</span>
                <span
                  className={cx(
                    "rounded border px-1.5 text-xs font-medium",
                    item.is_triggered
                      ? "border-amber-500/40 bg-amber-50 text-amber-800 dark:bg-amber-950/60 dark:text-amber-300"
                      : "border-line bg-subtle text-muted",
                  )}
                >
                  {item.is_triggered ? t.triggered : t.near}
                </span>
              </li>
            ))}
          </ul>
        )}
        <SubTitle>{t.signalsTitle}</SubTitle>
        {risk.decision_signal_risk.items.length === 0 ? (
          <p className="px-3 py-3 text-sm text-muted">{t.signalsEmpty}</p>
        ) : (
          <ul className="divide-y divide-line">
            {risk.decision_signal_risk.items.map((s) => (
              <li
                key={`${s.account_id}:${s.signal.id}`}
                className="flex justify-between gap-2 px-3 py-1.5 text-sm tabular-nums"
              >
                <span className="font-medium">{s.symbol}</span>
                <span data-action={s.signal.action}>{codeLabel(t.decisionActions, s.signal.action)}</span>
                <span className="text-muted">{s.signal.score ?? "—"}</span>
                <time dateTime={s.signal.created_at} className="text-xs text-muted">
                  <ZonedTime value={s.signal.created_at} style="date" />
                </time>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="min-w-0 border-t border-line">
        <SubTitle>{t.warningsTitle}</SubTitle>
        {risk.warnings.length === 0 ? (
          <p className="px-3 py-3 text-sm text-muted">{t.warningsEmpty}</p>
        ) : (
          <ul className="divide-y divide-line" data-testid="risk-warnings">
            {risk.warnings.map((w, i) => (
              <li key={`${w.code}:${i}`} className="px-3 py-1.5 text-sm" data-testid="risk-warning" data-code={w.code}>
                <span className="mr-1.5 rounded border border-amber-500/40 bg-amber-50 px-1 text-xs font-medium text-amber-800 dark:bg-amber-950/60 dark:text-amber-300">
                  {t.warningCodes[w.code]}
                </span>
                {fmt(t.warningTexts[w.code], {
                  code: w.symbol ?? "",
                  value: w.value ?? "",
                  limit: w.limit ?? "",
                  date: w.date ?? "",
                })}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
