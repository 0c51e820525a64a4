import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import type { TRunDiagnosticSummary } from "@/lib/analysis/run-schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { CopyButton } from "./copy-button";
import { formatDuration, stageLabel } from "./format";

type Texts = Dictionary["historyUi"];
type ComponentStatus = TRunDiagnosticSummary["components"][string]["status"];

const OVERALL_TONE: Record<TRunDiagnosticSummary["status"], string> = {
  normal: "border-accent/30 bg-accent-soft text-accent",
  degraded:
    "border-amber-500/40 bg-amber-50 text-amber-800 dark:border-amber-400/30 dark:bg-amber-950/60 dark:text-amber-300",
  failed: "border-fg/40 bg-subtle text-fg",
  unknown: "border-line bg-subtle text-muted",
};

const COMPONENT_TONE: Record<ComponentStatus, string> = {
  ok: "text-accent",
  degraded: "text-amber-700 dark:text-amber-400",
  failed: "font-semibold text-fg",
  unknown: "text-muted",
  not_configured: "text-muted",
  skipped: "text-muted",
};

function detailText(details: Record<string, unknown> | undefined): string {
  if (!details) return "";
  const parts: string[] = [];
  if (typeof details.provider === "string") parts.push(details.provider);
  if (typeof details.record_count === "number") parts.push(`×${details.record_count}`);
  if (typeof details.duration_ms === "number") parts.push(formatDuration(details.duration_ms));
  return parts.join(" · ");
}

// The run diagnostics stored with a record: overall status and reason, each component, and the copyable summary.
export function DiagnosticsPanel({ t, diagnostics }: { t: Texts; diagnostics: TRunDiagnosticSummary }) {
  const components = Object.values(diagnostics.components);
  return (
    <Panel>
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-3 py-1.5">
        <h2 className="text-sm font-semibold">{t.diagnosticsTitle}</h2>
        <span
          data-testid="diagnostics-status"
          data-status={diagnostics.status}
          className={cx("rounded border px-1.5 py-px text-xs font-semibold", OVERALL_TONE[diagnostics.status])}
        >
          {t.diagnosticsStatus[diagnostics.status]}
        </span>
      </div>
      <p className="px-3 pt-2 text-xs leading-5 text-muted">{diagnostics.reason}</p>
      {components.length > 0 ? (
        <ul className="mt-1 divide-y divide-line text-xs" data-testid="diagnostics-components">
          {components.map((c) => (
            <li key={c.key} className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 px-3 py-1">
              <span className="min-w-0">
                <span className="font-medium">{stageLabel(t, c.key, c.label)}</span>
                {c.message && c.message !== c.status ? (
                  <span className="block truncate text-muted" title={c.message}>
                    {c.message}
                  </span>
                ) : null}
              </span>
              <span className="text-right whitespace-nowrap">
                <span className={COMPONENT_TONE[c.status]}>{t.componentStatus[c.status]}</span>
                {detailText(c.details) ? (
                  <span className="block text-muted tabular-nums">{detailText(c.details)}</span>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex items-center justify-between gap-2 border-t border-line px-3 py-1.5">
        <span className="truncate font-mono text-[11px] text-muted">{diagnostics.trace_id ?? ""}</span>
        <CopyButton
          text={diagnostics.copy_text}
          label={t.diagnosticsCopy}
          copiedLabel={t.copied}
          failedLabel={t.copyFailed}
        />
      </div>
    </Panel>
  );
}
