import Link from "next/link";
import { TableFrame } from "@/components/data/table-frame";
import { ZonedTime } from "@/components/shell/time-zone";
import { cx } from "@/components/ui/cx";
import { CARD, CARD_ROW, LABELLED } from "@/components/ui/table-cards";
import type { TRunSummary } from "@/lib/screening/schemas";
import { codeLabel } from "@/lib/i18n/labels";
import { marketText, runHref, type ScreeningTexts } from "./format";

const TD = "px-2 py-1.5 align-top";

// The latest stored runs; each opens as the page's run.
export function RunHistory({
  t,
  runs,
  strategyNames,
  current,
}: {
  t: ScreeningTexts;
  runs: TRunSummary[];
  strategyNames: Record<string, string>;
  current: string | null;
}) {
  return (
    <TableFrame
      id="screening-history"
      title={t.historyTitle}
      emptyText={t.noRuns}
      testId="screening-history"
      minWidth="sm:min-w-[36rem]"
      columns={[t.colTime, t.colStrategy, t.colMarket, t.colCandidates, t.colQuality, ""]}
      rows={runs.map((r) => (
        <tr
          key={r.run_id}
          data-testid="history-row"
          data-run-id={r.run_id}
          aria-current={r.run_id === current ? "true" : undefined}
          className={cx(CARD_ROW, r.run_id === current && "bg-accent-soft/40")}
        >
          <td className={cx(TD, CARD, "text-xs whitespace-nowrap tabular-nums")}>
            <time dateTime={r.created_at}>
              <ZonedTime value={r.created_at} style="short" />
            </time>
          </td>
          <td className={cx(TD, CARD, "text-sm")}>{strategyNames[r.strategy] ?? r.strategy}</td>
          <td className={cx(TD, LABELLED, "text-xs")} data-label={t.colMarket}>
            {marketText(t, r.market)}
          </td>
          <td className={cx(TD, LABELLED, "text-xs tabular-nums")} data-label={t.colCandidates}>
            {r.candidate_count}
          </td>
          <td className={cx(TD, LABELLED, "text-xs")} data-label={t.colQuality}>
            {codeLabel(t.quality, r.quality_status)}
          </td>
          <td className={cx(TD, CARD, "text-xs")}>
            <Link href={runHref(r.run_id)} className="text-accent underline-offset-2 hover:underline">
              {t.open}
            </Link>
          </td>
        </tr>
      ))}
    />
  );
}
