import Link from "next/link";
import { Panel } from "@/components/ui/panel";
import { getI18n } from "@/lib/i18n/locale";

// The 404 of /history/[recordId]: the record id (or query_id) is unknown, or the record was deleted.
export default async function HistoryReportNotFound() {
  const { t } = await getI18n();
  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <h1 className="text-xl font-semibold tracking-tight">{t.historyUi.notFoundTitle}</h1>
      <Panel className="mt-4 px-4 py-4">
        <p className="text-sm text-muted">{t.historyUi.notFoundBody}</p>
        <Link href="/history" className="mt-3 inline-block text-sm text-accent underline-offset-2 hover:underline">
          {t.historyUi.backToHistory}
        </Link>
      </Panel>
    </div>
  );
}
