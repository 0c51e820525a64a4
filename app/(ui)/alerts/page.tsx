import { CheckNowButton } from "@/components/alerts/check-now";
import { AlertRuleForm } from "@/components/alerts/rule-form";
import { NotificationList } from "@/components/alerts/notification-list";
import { AlertRuleList } from "@/components/alerts/rule-list";
import { TriggerHistory, type TriggerFilters } from "@/components/alerts/trigger-history";
import { fmt } from "@/components/settings/format";
import { pageMetadata } from "@/components/shell/coming-soon-page";
import { Panel } from "@/components/ui/panel";
import { listAlertNotifications } from "@/lib/alerts/notifications";
import { readRuleDistances } from "@/lib/alerts/rule-readings";
import { listAlertRules } from "@/lib/alerts/rules";
import { PAGE_SIZE, ZAlertTriggerListQuery } from "@/lib/alerts/schemas";
import { accountChoices, watchlistSize } from "@/lib/alerts/targets";
import { listAlertTriggers } from "@/lib/alerts/triggers";
import { readPageQuery, type SearchParams } from "@/lib/http/page-query";
import { getI18n } from "@/lib/i18n/locale";

export const dynamic = "force-dynamic";
export const generateMetadata = () => pageMetadata("alerts");

const FIELDS = ["rule_id", "status", "page", "page_size"] as const;

// The Alerts page. Rules, triggers and notification records are read on the server
// through lib/alerts (the functions behind GET /api/v1/alerts/rules, /triggers and /notifications, in the shapes of
// docs/api.md §12.2); creating, editing, enabling, testing, deleting and "check now" run in the browser against the
// Alerts API and refresh the page. Each enabled stock rule shows its current value and the distance
// to its trigger, read in the same render (lib/alerts/rule-readings.ts, each stock once, within a time budget).
export default async function AlertsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const [{ locale, t }, params] = await Promise.all([getI18n(), searchParams]);
  const texts = t.alertsUi;
  const { query, invalid } = readPageQuery(params, ZAlertTriggerListQuery, FIELDS, {
    page: 1,
    page_size: PAGE_SIZE.default,
  });
  const [{ rules, readings }, triggers, notifications, accounts] = await Promise.all([
    // The readings are extra: a failure leaves the rules without them.
    listAlertRules({ page: 1, page_size: PAGE_SIZE.max }).then(async (rules) => ({
      rules,
      readings: await readRuleDistances(rules.items).catch(() => ({})),
    })),
    listAlertTriggers(query),
    listAlertNotifications({ page: 1, page_size: PAGE_SIZE.default }),
    accountChoices(),
  ]);
  const accountNames = new Map(accounts.map((a) => [a.id, a.name]));
  const filters: TriggerFilters = {
    rule_id: query.rule_id,
    status: query.status,
    page_size: query.page_size === PAGE_SIZE.default ? undefined : query.page_size,
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <h1 className="text-xl font-semibold tracking-tight">{t.pages.alerts.title}</h1>
      <p className="mt-1 text-sm text-muted">{texts.intro}</p>

      <div className="mt-4 space-y-4">
        <Panel>
          <div className="border-b border-line px-3 py-2">
            <h2 className="text-sm font-semibold">{texts.createTitle}</h2>
          </div>
          <AlertRuleForm
            t={texts}
            search={t.analyzeUi}
            locale={locale}
            accounts={accounts}
            watchlistCount={watchlistSize()}
          />
        </Panel>

        <Panel>
          <div className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-3 py-2">
            <h2 className="text-sm font-semibold">
              {texts.rulesTitle}
              <span className="ml-2 text-xs font-normal text-muted tabular-nums" data-testid="alert-rules-total">
                {fmt(texts.rulesCount, { total: rules.total })}
              </span>
            </h2>
            <CheckNowButton t={texts} />
          </div>
          <AlertRuleList t={texts} rules={rules.items} readings={readings} accounts={accountNames} />
        </Panel>

        <Panel>
          <div id="triggers" className="scroll-mt-4 border-b border-line px-3 py-2">
            <h2 className="text-sm font-semibold">
              {texts.triggersTitle}
              <span className="ml-2 text-xs font-normal text-muted tabular-nums" data-testid="alert-triggers-total">
                {fmt(texts.triggersCount, { total: triggers.total })}
              </span>
            </h2>
          </div>
          <TriggerHistory t={texts} list={triggers} rules={rules.items} filters={filters} invalid={invalid} />
        </Panel>

        <Panel>
          <div id="notifications" className="scroll-mt-4 border-b border-line px-3 py-2">
            <h2 className="text-sm font-semibold">
              {texts.notificationsTitle}
              <span
                className="ml-2 text-xs font-normal text-muted tabular-nums"
                data-testid="alert-notifications-total"
              >
                {fmt(texts.notificationsCount, { shown: notifications.items.length, total: notifications.total })}
              </span>
            </h2>
          </div>
          <NotificationList t={texts} list={notifications} />
        </Panel>
      </div>
    </div>
  );
}
