import Link from "next/link";
import { fmt } from "@/components/settings/format";
import { ZonedTime } from "@/components/shell/time-zone";
import { cx } from "@/components/ui/cx";
import { CARD, CARD_BLOCK, CARD_HEAD, CARD_ROW_3, FULL, LABELLED, WIDE } from "@/components/ui/table-cards";
import { Pagination } from "@/components/ui/pagination";
import type { TAlertRule, TAlertTriggerItem, TAlertTriggerListResponse } from "@/lib/alerts/schemas";
import { FIELD, LABEL, plainNumber, PRIMARY_BUTTON, TD, TH, triggerReason, type AlertTexts } from "./format";

// The trigger history (GET /api/v1/alerts/triggers, read on the server): a GET filter form (rule, status),
// the table and previous/next links that keep the filters. On a phone each firing is a card: rule and status, target,
// observed value and threshold, time and notification, then the message.

export type TriggerStatus = TAlertTriggerItem["status"];
const WARN =
  "border-amber-500/40 bg-amber-50 text-amber-800 dark:border-amber-400/30 dark:bg-amber-950/60 dark:text-amber-300";
const QUIET = "border-line bg-subtle text-muted";
const STATUSES: Record<TriggerStatus, string> = {
  triggered: "border-accent/30 bg-accent-soft text-accent",
  skipped: QUIET,
  degraded: WARN,
  failed: WARN,
};
type DeliveryStatus = keyof AlertTexts["deliveries"];
const DELIVERIES: Record<DeliveryStatus, string> = { sent: STATUSES.triggered, failed: WARN, suppressed: QUIET };
export const TRIGGER_STATUS_LIST = Object.keys(STATUSES) as TriggerStatus[];

export function TriggerStatusBadge({ t, status }: { t: AlertTexts; status: TriggerStatus }) {
  return (
    <span
      data-testid="trigger-status"
      data-status={status}
      className={cx(
        "inline-flex items-center rounded border px-1.5 py-0.5 text-xs leading-4 font-medium whitespace-nowrap",
        STATUSES[status],
      )}
    >
      {t.statuses[status]}
    </span>
  );
}

export interface TriggerFilters {
  rule_id?: number;
  // Any text (spec 4.6 types it as a string); the select offers the statuses the service records.
  status?: string;
  /** Kept in the links when not the API's default. */
  page_size?: number;
}

export function triggersHref(filters: TriggerFilters, page = 1): string {
  const params = new URLSearchParams();
  if (filters.rule_id !== undefined) params.set("rule_id", String(filters.rule_id));
  if (filters.status) params.set("status", filters.status);
  if (filters.page_size !== undefined) params.set("page_size", String(filters.page_size));
  if (page > 1) params.set("page", String(page));
  const text = params.toString();
  return text ? `/alerts?${text}#triggers` : "/alerts#triggers";
}

/** A firing's notification outcome (diagnostics.delivery_status) and its reason. */
function deliveryOf(item: TAlertTriggerItem): { status: DeliveryStatus; reason: string | null } | null {
  const status = item.diagnostics?.delivery_status;
  if (status !== "sent" && status !== "failed" && status !== "suppressed") return null;
  const delivery = item.diagnostics?.delivery;
  const reason = delivery && typeof delivery === "object" ? (delivery as Record<string, unknown>).reason : null;
  return { status, reason: typeof reason === "string" ? reason : null };
}

export function TriggerHistory({
  t,
  list,
  rules,
  filters,
  invalid,
}: {
  t: AlertTexts;
  list: TAlertTriggerListResponse;
  rules: TAlertRule[];
  filters: TriggerFilters;
  invalid: string[];
}) {
  const names = new Map(rules.map((r) => [r.id, r.name]));
  const filtered = filters.rule_id !== undefined || filters.status !== undefined;
  const pageCount = Math.max(1, Math.ceil(list.total / list.page_size));
  const ruleLabel = (id: number | null) => (id === null ? "—" : (names.get(id) ?? fmt(t.deletedRule, { id })));
  return (
    <>
      <form
        method="get"
        action="/alerts#triggers"
        role="search"
        aria-label={t.triggersFilters}
        className="grid grid-cols-2 items-end gap-2 border-b border-line px-3 py-2.5 sm:grid-cols-[minmax(10rem,16rem)_minmax(8rem,12rem)_auto]"
      >
        <label className={cx(LABEL, "col-span-2 sm:col-span-1")}>
          {t.filterRule}
          <select
            name="rule_id"
            defaultValue={filters.rule_id === undefined ? "" : String(filters.rule_id)}
            className={FIELD}
          >
            <option value="">{t.allRules}</option>
            {rules.map((r) => (
              <option key={r.id} value={r.id}>
                #{r.id} {r.name}
              </option>
            ))}
            {filters.rule_id !== undefined && !names.has(filters.rule_id) ? (
              <option value={filters.rule_id}>{ruleLabel(filters.rule_id)}</option>
            ) : null}
          </select>
        </label>
        <label className={LABEL}>
          {t.filterStatus}
          <select name="status" defaultValue={filters.status ?? ""} className={FIELD}>
            <option value="">{t.allStatuses}</option>
            {TRIGGER_STATUS_LIST.map((s) => (
              <option key={s} value={s}>
                {t.statuses[s]}
              </option>
            ))}
          </select>
        </label>
        <div className="flex items-center gap-2">
          {filters.page_size !== undefined ? <input type="hidden" name="page_size" value={filters.page_size} /> : null}
          <button type="submit" className={PRIMARY_BUTTON}>
            {t.apply}
          </button>
          {filtered ? (
            <Link
              href="/alerts#triggers"
              className="text-sm whitespace-nowrap text-accent underline-offset-2 hover:underline"
            >
              {t.reset}
            </Link>
          ) : null}
        </div>
        {invalid.length > 0 ? (
          <p role="alert" className="col-span-full text-xs font-medium text-amber-700 dark:text-amber-400">
            {fmt(t.invalidFilter, { fields: invalid.join(", ") })}
          </p>
        ) : null}
      </form>
      {list.items.length === 0 ? (
        <p data-testid="alert-triggers-empty" className="px-3 py-6 text-center text-sm text-muted">
          {filtered ? t.triggersEmptyFiltered : t.triggersEmpty}
        </p>
      ) : (
        <div
          tabIndex={0}
          className="focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent sm:overflow-x-auto"
        >
          <table className={cx("w-full text-sm sm:min-w-[54rem]", CARD_BLOCK)} data-testid="alert-triggers">
            <thead className={cx("border-b border-line bg-subtle", CARD_HEAD)}>
              <tr>
                <th scope="col" className={TH}>
                  {t.colTime}
                </th>
                <th scope="col" className={TH}>
                  {t.colRule}
                </th>
                <th scope="col" className={TH}>
                  {t.colTarget}
                </th>
                <th scope="col" className={cx(TH, "text-right")}>
                  {t.colObserved}
                </th>
                <th scope="col" className={cx(TH, "text-right")}>
                  {t.colThreshold}
                </th>
                <th scope="col" className={TH}>
                  {t.colStatus}
                </th>
                <th scope="col" className={TH}>
                  {t.colDelivery}
                </th>
                <th scope="col" className={TH}>
                  {t.colMessage}
                </th>
              </tr>
            </thead>
            <tbody className={cx("divide-y divide-line", CARD_BLOCK)}>
              {list.items.map((item) => {
                const delivery = deliveryOf(item);
                return (
                  <tr
                    key={item.id}
                    data-testid="alert-trigger-row"
                    data-trigger-id={item.id}
                    data-rule-id={item.rule_id ?? ""}
                    className={CARD_ROW_3}
                  >
                    <td
                      className={cx(TD, "whitespace-nowrap tabular-nums", LABELLED, WIDE, "max-sm:order-6")}
                      data-label={t.colTime}
                    >
                      <time dateTime={item.triggered_at}>
                        <ZonedTime value={item.triggered_at} />
                      </time>
                    </td>
                    <td
                      className={cx(
                        TD,
                        "max-w-[14rem] truncate",
                        CARD,
                        WIDE,
                        "max-sm:order-1 max-sm:max-w-none max-sm:font-medium",
                      )}
                      title={ruleLabel(item.rule_id)}
                    >
                      {ruleLabel(item.rule_id)}
                    </td>
                    <td
                      className={cx(TD, "whitespace-nowrap tabular-nums", LABELLED, "max-sm:order-3")}
                      data-label={t.colTarget}
                    >
                      {item.target}
                    </td>
                    <td
                      className={cx(TD, "text-right font-medium tabular-nums", LABELLED, "max-sm:order-4")}
                      data-label={t.colObserved}
                      data-testid="trigger-observed"
                    >
                      {plainNumber(item.observed_value)}
                    </td>
                    <td
                      className={cx(TD, "text-right tabular-nums", LABELLED, "max-sm:order-5")}
                      data-label={t.colThreshold}
                      data-testid="trigger-threshold"
                    >
                      {plainNumber(item.threshold)}
                    </td>
                    <td className={cx(TD, CARD, "max-sm:order-2 max-sm:text-right")}>
                      <TriggerStatusBadge t={t} status={item.status} />
                    </td>
                    <td className={cx(TD, LABELLED, "max-sm:order-7")} data-label={t.colDelivery}>
                      {delivery ? (
                        <span
                          data-testid="trigger-delivery-status"
                          data-status={delivery.status}
                          className={cx(
                            "inline-flex items-center rounded border px-1.5 py-0.5 text-xs leading-4 font-medium whitespace-nowrap",
                            DELIVERIES[delivery.status],
                          )}
                        >
                          {t.deliveries[delivery.status]}
                        </span>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td
                      className={cx(TD, "min-w-[14rem] text-xs", LABELLED, FULL, "max-sm:order-8")}
                      data-label={t.colMessage}
                    >
                      <div data-testid="trigger-reason">{triggerReason(t, item)}</div>
                      {delivery?.reason ? (
                        <div className="text-muted" data-testid="trigger-delivery">
                          {delivery.reason}
                        </div>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {pageCount > 1 ? (
        <div className="border-t border-line px-3 py-2">
          <Pagination
            page={list.page}
            pageCount={pageCount}
            href={(p) => triggersHref(filters, p)}
            labels={{
              nav: t.pagination,
              previous: t.prevPage,
              next: t.nextPage,
              status: fmt(t.pageOf, { page: list.page, pages: pageCount }),
            }}
          />
        </div>
      ) : null}
    </>
  );
}
