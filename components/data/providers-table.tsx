import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import { CARD, CARD_BLOCK, CARD_HEAD, CARD_ROW, FULL, LABELLED } from "@/components/ui/table-cards";
import type { TDataOverview, TProviderCapability } from "@/lib/data-sources/schemas";
import { datasetLabel, labelList, marketLabel, TD, TH, textOr, type DataTexts } from "./format";
import { SectionTitle } from "./section-title";
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
    <Panel>
      <SectionTitle id="data-providers-title">{t.sourcesTitle}</SectionTitle>
      {rows.length === 0 ? (
        <p className="px-3 py-6 text-center text-sm text-muted">{t.noProviders}</p>
      ) : (
        <div className="sm:overflow-x-auto">
          <table
            aria-labelledby="data-providers-title"
            data-testid="data-providers"
            className={cx("w-full border-collapse text-sm sm:min-w-[72rem]", CARD_BLOCK)}
          >
            <thead className={cx("border-b border-line bg-subtle/60", CARD_HEAD)}>
              <tr>
                <th scope="col" className={TH}>
                  {t.colName}
                </th>
                <th scope="col" className={TH}>
                  {t.colEnabled}
                </th>
                <th scope="col" className={TH}>
                  {t.colStatus}
                </th>
                <th scope="col" className={TH}>
                  {t.colKind}
                </th>
                <th scope="col" className={TH}>
                  {t.colStockMarkets}
                </th>
                <th scope="col" className={TH}>
                  {t.colIndexMarkets}
                </th>
                <th scope="col" className={TH}>
                  {t.colDatasets}
                </th>
                <th scope="col" className={TH}>
                  {t.colRealtime}
                </th>
                <th scope="col" className={TH}>
                  {t.colCredentials}
                </th>
                <th scope="col" className={TH}>
                  {t.colConfigKeys}
                </th>
                <th scope="col" className={TH}>
                  {t.colNote}
                </th>
              </tr>
            </thead>
            <tbody className={cx("divide-y divide-line", CARD_BLOCK)}>
              {rows.map((row) => {
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
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}
