import { serviceTimeZone } from "@/lib/usage/time-zone";
import { AnalyzeWorkbench } from "@/components/analysis/analyze-workbench";
import { pageMetadata } from "@/components/shell/coming-soon-page";
import { getI18n } from "@/lib/i18n/locale";

export const generateMetadata = () => pageMetadata("analyze");

// Issue 4 item 8: the Analyze page. The form and the report are client components (they call
// /api/v1/stocks/search and POST /api/v1/analysis/analyze); the strings come from the server's dictionary.
// Issue 5 item 9: a batch tab (async tasks) and the live task panel (SSE task stream).
export default async function AnalyzePage() {
  const { locale, t } = await getI18n();
  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <h1 className="text-xl font-semibold tracking-tight">{t.pages.analyze.title}</h1>
      <p className="mt-1 text-sm text-muted">{t.analyzeUi.intro}</p>
      <div className="mt-4">
        <AnalyzeWorkbench t={t.analyzeUi} tt={t.tasksUi} locale={locale} timeZone={serviceTimeZone()} disclaimer={t.shell.disclaimer} />
      </div>
    </div>
  );
}
