import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import type { TDataQuality, TEvidence, TEvidenceScope } from "@/lib/evidence/schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";

// docs/api.md §13 on the report: the engine's own record for the call it makes now (the statement in the report's
// language, every figure with its n and interval) and how far the data carry the call.

type Texts = Dictionary["analyzeUi"];

const signed = (v: number | null) => (v === null ? "—" : `${v > 0 ? "+" : ""}${v.toFixed(2)}%`);
const share = (v: number | null) => (v === null ? "—" : `${(v * 100).toFixed(1)}%`);

const VERDICT_TONE: Record<TEvidenceScope["verdict"], string> = {
  edge: "border-emerald-600/40 text-emerald-800 dark:text-emerald-300",
  no_measurable_edge: "border-line text-muted",
  adverse: "border-red-600/40 text-red-800 dark:text-red-300",
  insufficient: "border-line text-muted",
};

const LEVEL_TONE: Record<TDataQuality["level"], string> = {
  good: "border-emerald-600/40 text-emerald-800 dark:text-emerald-300",
  degraded: "border-amber-500/50 text-amber-800 dark:text-amber-300",
  insufficient: "border-red-600/40 text-red-800 dark:text-red-300",
};

function ScopeRow({ t, scope }: { t: Texts; scope: TEvidenceScope }) {
  return (
    <tr data-testid={`evidence-scope-${scope.scope}`} data-verdict={scope.verdict} className="border-t border-line">
      <th scope="row" className="py-1 pr-3 text-left font-medium">
        {t.evidenceScopes[scope.scope]}
        {scope.universe ? <div className="text-xs font-normal text-muted">{scope.universe}</div> : null}
      </th>
      <td className="py-1 pr-3 text-xs text-muted">
        {scope.period_start} → {scope.period_end}
      </td>
      <td className="py-1 pr-3">
        {scope.n_calls} ({scope.n_independent})
      </td>
      <td className="py-1 pr-3">
        {signed(scope.mean_excess_pct)}{" "}
        <span className="text-xs text-muted">
          [{signed(scope.ci95_low_pct)}, {signed(scope.ci95_high_pct)}]
        </span>
      </td>
      <td className="py-1 pr-3">
        {share(scope.hit_rate)} / {share(scope.base_hit_rate)}
      </td>
      <td className="py-1">
        <span
          className={cx("inline-flex rounded border px-1.5 py-0.5 text-xs font-medium", VERDICT_TONE[scope.verdict])}
        >
          {t.evidenceVerdicts[scope.verdict]}
        </span>
      </td>
    </tr>
  );
}

export function EvidenceCard({
  t,
  evidence,
  quality,
}: {
  t: Texts;
  evidence: TEvidence | null;
  quality: TDataQuality | null;
}) {
  if (!evidence && !quality) return null;
  return (
    <Panel className="p-3">
      {quality ? (
        <div data-testid="data-quality" data-level={quality.level} className="text-sm">
          <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
            <h2 className="text-sm font-semibold">{t.dataQualityTitle}</h2>
            <span
              className={cx("inline-flex rounded border px-1.5 py-0.5 text-xs font-medium", LEVEL_TONE[quality.level])}
            >
              {t.dataQualityLevels[quality.level]}
            </span>
            <span className="text-xs text-muted tabular-nums">
              {quality.source}
              {quality.last_bar_date
                ? ` · ${fmt(t.dataQualityBars, { bars: quality.bars, date: quality.last_bar_date })}`
                : ""}
            </span>
          </div>
          {quality.reasons.length > 0 ? (
            <ul className="mt-1 list-disc pl-5 text-sm leading-6">
              {quality.reasons.map((r) => (
                <li key={r.code} data-reason={r.code}>
                  {r.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {evidence ? (
        <div data-testid="evidence" className={cx(quality && "mt-3 border-t border-line pt-3")}>
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 className="text-sm font-semibold">{t.evidenceTitle}</h2>
            <span className="text-xs text-muted">
              {evidence.engine_version} · {t.evidenceHint}
            </span>
          </div>
          <p data-testid="evidence-statement" className="mt-1 text-sm leading-6">
            {evidence.statement}
          </p>
          {evidence.scopes.length > 0 ? (
            <div
              role="region"
              aria-label={t.evidenceTitle}
              tabIndex={0}
              className="mt-2 overflow-x-auto focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
            >
              <table className="w-full min-w-[36rem] text-sm tabular-nums">
                <thead className="text-xs text-muted">
                  <tr>
                    <th className="py-1 pr-3 text-left font-normal">{t.evidenceColumns.scope}</th>
                    <th className="py-1 pr-3 text-left font-normal">{t.evidenceColumns.period}</th>
                    <th className="py-1 pr-3 text-left font-normal">{t.evidenceColumns.calls}</th>
                    <th className="py-1 pr-3 text-left font-normal">{t.evidenceColumns.excess}</th>
                    <th className="py-1 pr-3 text-left font-normal">{t.evidenceColumns.hit}</th>
                    <th className="py-1 text-left font-normal">{t.evidenceColumns.verdict}</th>
                  </tr>
                </thead>
                <tbody>
                  {evidence.scopes.map((scope) => (
                    <ScopeRow key={scope.scope} t={t} scope={scope} />
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </div>
      ) : null}
    </Panel>
  );
}
