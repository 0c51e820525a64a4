import { pageMetadata } from "@/components/shell/coming-soon-page";
import { USAGE_DAILY_DAYS_SHOWN, UsageView } from "@/components/usage/usage-view";
import { getI18n } from "@/lib/i18n/locale";
import { USAGE_PERIODS, type TUsagePeriod } from "@/lib/usage/period";
import { usageDaily, usageDashboard } from "@/lib/usage/summary";

export const dynamic = "force-dynamic";
export const generateMetadata = () => pageMetadata("usage");

type UsagePageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function periodOf(value: string | string[] | undefined): TUsagePeriod {
  return typeof value === "string" && (USAGE_PERIODS as readonly string[]).includes(value)
    ? (value as TUsagePeriod)
    : "month";
}

// The Usage page. Read on the server through lib/usage (the functions behind
// GET /api/v1/usage/dashboard and /daily); the period tabs are links, so the page needs no client code.
export default async function UsagePage({ searchParams }: UsagePageProps) {
  const [{ locale, t }, params] = await Promise.all([getI18n(), searchParams]);
  const period = periodOf(params.period);
  const [data, daily] = await Promise.all([usageDashboard(period, 50), usageDaily(USAGE_DAILY_DAYS_SHOWN)]);
  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <h1 className="text-xl font-semibold tracking-tight">{t.pages.usage.title}</h1>
      <p className="mt-1 text-sm text-muted">{t.usageUi.intro}</p>
      <div className="mt-4">
        <UsageView t={t.usageUi} locale={locale} data={data} daily={daily} />
      </div>
    </div>
  );
}
