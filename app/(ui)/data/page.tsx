import { CallHistoryNote } from "@/components/data/call-history-note";
import { DataWarnings } from "@/components/data/data-warnings";
import { DatasetsTable } from "@/components/data/datasets-table";
import { joinProviders, ProvidersTable } from "@/components/data/providers-table";
import { pageMetadata } from "@/components/shell/coming-soon-page";
import { ZonedTime } from "@/components/shell/time-zone";
import { dataCapabilities } from "@/lib/data-sources/capabilities";
import { dataOverview } from "@/lib/data-sources/overview";
import { getI18n } from "@/lib/i18n/locale";

export const dynamic = "force-dynamic";
export const generateMetadata = () => pageMetadata("data");

// The Data page: which market-data source serves which market and what failed, read on the server from
// lib/data-sources (the functions behind the data overview and capabilities API), so the page needs no client code.
export default async function DataPage() {
  const [{ t }, overview] = await Promise.all([getI18n(), dataOverview()]);
  const capabilities = dataCapabilities();
  const td = t.dataSourcesUi;
  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <h1 className="text-xl font-semibold tracking-tight">{t.pages.data.title}</h1>
      <p className="mt-1 max-w-3xl text-sm text-muted">{td.intro}</p>
      <div className="mt-4 space-y-4">
        <DataWarnings t={td} codes={overview.warning_codes} />
        <DatasetsTable
          t={td}
          datasets={overview.datasets}
          aside={
            <time dateTime={overview.generated_at}>
              <ZonedTime value={overview.generated_at} template={td.asOf} />
            </time>
          }
        />
        <ProvidersTable t={td} rows={joinProviders(overview.providers, capabilities.providers)} />
        <CallHistoryNote t={td} since={overview.since} />
      </div>
    </div>
  );
}
