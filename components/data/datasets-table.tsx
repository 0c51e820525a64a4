import type { ReactNode } from "react";
import { fmt } from "@/components/settings/format";
import { ZonedTime } from "@/components/shell/time-zone";
import { cx } from "@/components/ui/cx";
import { CARD, CARD_HIDDEN, CARD_ROW_3, FULL, LABELLED, WIDE } from "@/components/ui/table-cards";
import type { TDatasetState } from "@/lib/data-sources/schemas";
import { datasetLabel, marketLabel, routeText, TD, type DataTexts } from "./format";
import { TableFrame } from "./table-frame";
import { DataStatusBadge } from "./status-badge";

// One row per dataset and market: its status, the source that answered last, the order the sources are asked in,
// the last success, the daily bars kept in the database and why each failing source failed. On a phone each row is a
// card: market, dataset and status on top, then source and last success, route, stored bars and diagnostics.

function StoredBars({ t, stored }: { t: DataTexts; stored: TDatasetState["stored"] }) {
  if (stored === null) return <>—</>;
  if (stored.last_fetched_at === null) return <>{fmt(t.storedNoTime, { symbols: stored.symbols })}</>;
  // {symbols} is filled here, {time} by ZonedTime in the display zone.
  return (
    <ZonedTime value={stored.last_fetched_at} style="short" template={fmt(t.stored, { symbols: stored.symbols })} />
  );
}

export function DatasetsTable({ t, datasets, aside }: { t: DataTexts; datasets: TDatasetState[]; aside?: ReactNode }) {
  return (
    <TableFrame
      id="data-datasets-title"
      title={t.marketsTitle}
      aside={aside}
      emptyText={t.noDatasets}
      testId="data-datasets"
      minWidth="sm:min-w-[60rem]"
      columns={[
        t.colMarket,
        t.colDataset,
        t.colStatus,
        t.colSource,
        t.colRoute,
        t.colLastSuccess,
        t.colStored,
        t.colDiagnostics,
      ]}
      rows={datasets.map((d) => (
        <tr
          key={`${d.market}|${d.dataset}`}
          data-testid="dataset-row"
          data-dataset={d.dataset}
          data-market={d.market}
          data-status={d.status}
          className={CARD_ROW_3}
        >
          <td className={cx(TD, "font-medium whitespace-nowrap", CARD)} data-testid="dataset-market">
            {marketLabel(t, d.market)}
          </td>
          <td className={cx(TD, "whitespace-nowrap", CARD)} data-testid="dataset-name">
            {datasetLabel(t, d.dataset)}
          </td>
          <td className={cx(TD, CARD, "max-sm:justify-self-end")}>
            <DataStatusBadge t={t} status={d.status} testId="dataset-status" />
          </td>
          <td
            className={cx(TD, "font-mono text-xs whitespace-nowrap", LABELLED, "max-sm:order-1")}
            data-label={t.colSource}
            data-testid="dataset-source"
          >
            {d.current_source ?? "—"}
          </td>
          <td
            className={cx(TD, "font-mono text-xs", LABELLED, FULL, "max-sm:order-3")}
            data-label={t.colRoute}
            data-testid="dataset-route"
          >
            {routeText(d.route)}
          </td>
          <td
            className={cx(TD, "text-xs whitespace-nowrap tabular-nums", LABELLED, WIDE, "max-sm:order-2")}
            data-label={t.colLastSuccess}
            data-testid="dataset-last-success"
          >
            {d.last_success_at ? (
              <time dateTime={d.last_success_at}>
                <ZonedTime value={d.last_success_at} style="short" />
              </time>
            ) : (
              "—"
            )}
          </td>
          <td
            className={cx(
              TD,
              "text-xs tabular-nums",
              LABELLED,
              FULL,
              "max-sm:order-4",
              d.stored === null && CARD_HIDDEN,
            )}
            data-label={t.colStored}
            data-testid="dataset-stored"
          >
            <StoredBars t={t} stored={d.stored} />
          </td>
          <td
            className={cx(
              TD,
              "max-w-[24rem] text-xs text-muted",
              LABELLED,
              FULL,
              "max-sm:order-5 max-sm:max-w-none",
              d.diagnostics.length === 0 && CARD_HIDDEN,
            )}
            data-label={t.colDiagnostics}
            data-testid="dataset-diagnostics"
          >
            {d.diagnostics.length === 0 ? (
              "—"
            ) : (
              <ul className="space-y-0.5">
                {d.diagnostics.map((reason, i) => (
                  <li key={i} className="wrap-anywhere">
                    {reason}
                  </li>
                ))}
              </ul>
            )}
          </td>
        </tr>
      ))}
    />
  );
}
