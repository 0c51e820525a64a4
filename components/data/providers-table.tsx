import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import { CARD, CARD_ROW, FULL, LABELLED } from "@/components/ui/table-cards";
import type { TDataOverview, TProviderCapability } from "@/lib/data-sources/schemas";
import { datasetLabel, labelList, marketLabel, TD, textOr, type DataTexts } from "./format";
import { TableFrame } from "./table-frame";
import { DataStatusBadge } from "./status-badge";

// Every source this build has: whether MARKET_DATA_SOURCES lists it (and where), how its calls went, and what it can
// serve (read off the provider itself). On a phone each source is a card: its name, then the figures in pairs, then
// the config keys and the note across the card.

export type ProviderRow = TDataOverview["providers"][number] & { capability: TProviderCapability | null };

/** The overview's sources in its order, each with its capability table (null when the build has none for it). */
export function joinProviders(
  providers: TDataOverview["providers"],
  capabilities: readonly TProviderCapability[],
): ProviderRow[] {
  const byId = new Map(capabilities.map((c) => [c.provider, c]));
  return providers.map((p) => ({ ...p, capability: byId.get(p.provider) ?? null }));
}

function enabledText(t: DataTexts, row: ProviderRow): string {
  if (!row.enabled) return t.enabledNo;
  return row.priority === null ? t.enabledYes : `${t.enabledYes} · ${fmt(t.enabledAt, { priority: row.priority })}`;
}

function yesNo(t: DataTexts, value: boolean | undefined): string {
  return value === undefined ? "—" : value ? t.yes : t.no;
}

export function ProvidersTable({ t, rows }: { t: DataTexts; rows: ProviderRow[] }) {
  const markets = (codes: readonly string[] | undefined) =>
    labelList(codes ?? [], (code) => marketLabel(t, code), t.listSeparator);
  return (
    <TableFrame
      id="data-providers-title"
      title={t.sourcesTitle}
      emptyText={t.noProviders}
      testId="data-providers"
      minWidth="sm:min-w-[72rem]"
      columns={[
        t.colName,
        t.colEnabled,
        t.colStatus,
        t.colKind,
        t.colStockMarkets,
        t.colIndexMarkets,
        t.colDatasets,
        t.colRealtime,
        t.colCredentials,
        t.colConfigKeys,
        t.colNote,
      ]}
      rows={rows.map((row) => {
        const c = row.capability;
        // Names and notes by provider id in the UI language; a provider this UI does not know keeps the server's.
        const name = textOr(t.providerNames, row.provider, row.name);
        const note = textOr(t.providerNotes, row.provider, c?.note || "—");
        return (
          <tr
            key={row.provider}
            data-testid="provider-row"
            data-provider={row.provider}
            data-enabled={String(row.enabled)}
            className={cx(CARD_ROW, !row.enabled && "text-muted")}
          >
            <td className={cx(TD, "whitespace-nowrap", CARD, FULL)} data-testid="provider-name">
              <span className="font-medium text-fg">{name}</span>
              {name !== row.provider ? (
                <code className="ml-1.5 font-mono text-xs text-muted">{row.provider}</code>
              ) : null}
            </td>
            <td
              className={cx(TD, "whitespace-nowrap", LABELLED)}
              data-label={t.colEnabled}
              data-testid="provider-enabled"
            >
              {enabledText(t, row)}
            </td>
            <td className={cx(TD, LABELLED)} data-label={t.colStatus}>
              <DataStatusBadge t={t} status={row.status} testId="provider-status" />
            </td>
            <td className={cx(TD, "whitespace-nowrap", LABELLED)} data-label={t.colKind}>
              {c ? t.kinds[c.kind] : "—"}
            </td>
            <td className={cx(TD, LABELLED)} data-label={t.colStockMarkets}>
              {markets(c?.markets)}
            </td>
            <td className={cx(TD, LABELLED)} data-label={t.colIndexMarkets}>
              {markets(c?.index_markets)}
            </td>
            <td className={cx(TD, LABELLED)} data-label={t.colDatasets}>
              {labelList(c?.datasets ?? [], (code) => datasetLabel(t, code), t.listSeparator)}
            </td>
            <td className={cx(TD, "whitespace-nowrap", LABELLED)} data-label={t.colRealtime}>
              {yesNo(t, c?.realtime)}
            </td>
            <td className={cx(TD, "whitespace-nowrap", LABELLED)} data-label={t.colCredentials}>
              {yesNo(t, c?.requires_credentials)}
            </td>
            <td className={cx(TD, "font-mono text-xs", LABELLED, FULL)} data-label={t.colConfigKeys}>
              {c && c.config_keys.length > 0 ? (
                <ul>
                  {c.config_keys.map((key) => (
                    <li key={key} className="wrap-anywhere">
                      {key}
                    </li>
                  ))}
                </ul>
              ) : (
                "—"
              )}
            </td>
            <td
              className={cx(TD, "max-w-[22rem] text-xs text-muted", LABELLED, FULL, "max-sm:max-w-none")}
              data-label={t.colNote}
            >
              {note}
            </td>
          </tr>
        );
      })}
    />
  );
}
