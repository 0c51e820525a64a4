import { Suspense } from "react";
import { AnalyzeWorkbench } from "@/components/analysis/analyze-workbench";
import { CockpitSkeleton, CockpitView } from "@/components/home/cockpit-view";
import { pageMetadata } from "@/components/shell/coming-soon-page";
import { now } from "@/lib/clock";
import { DataUnreachableBanner } from "@/components/setup/data-unreachable-banner";
import { SetupChecklist } from "@/components/setup/setup-checklist";
import { setupStatus } from "@/lib/config/setup-status";
import { loadCockpit } from "@/lib/home/cockpit";
import { isLocalSource, sampleStocks } from "@/lib/market";
import { marketDataReachability } from "@/lib/market/reachability";
import { getSettings } from "@/lib/settings/settings";
import { getDisplayTimeZone, getI18n } from "@/lib/i18n/locale";

export const dynamic = "force-dynamic";
export const generateMetadata = () => pageMetadata("analyze");

// The cockpit streams in after the page's shell: a slow market-data provider never holds the analyze box.
async function Cockpit() {
  const [{ locale, t }, display] = await Promise.all([getI18n(), getDisplayTimeZone()]);
  const cockpit = await loadCockpit(locale === "en" ? "en" : "zh");
  return (
    <CockpitView
      cockpit={cockpit}
      t={t.homeUi}
      ta={t.analyzeUi}
      alerts={t.alertsUi}
      actions={t.signalsUi.actions}
      locale={locale}
      at={now()}
      timeZone={display.zone}
    />
  );
}

// A first run's way forward: the banner when no market-data source answers, and the setup checklist until the
// required steps are done. Streamed: the providers' probe never holds the page.
async function FirstRun() {
  const [{ t }, reach, status] = await Promise.all([getI18n(), marketDataReachability(), setupStatus()]);
  if (!reach.unreachable && status.is_complete) return null;
  return (
    <div className="mt-4 space-y-3">
      <DataUnreachableBanner reach={reach} t={t.setupUi} />
      <SetupChecklist status={status} t={t.setupUi} />
    </div>
  );
}

/** The sample data's stocks when it is the only market-data source (with the user's CSV files at most). */
function sampleOnlyStocks(language: "zh" | "en"): { code: string; name: string }[] | null {
  const sources = getSettings().MARKET_DATA_SOURCES;
  if (!sources.includes("sample") || !sources.every(isLocalSource)) return null;
  return sampleStocks().map((s) => ({ code: s.code, name: language === "en" ? s.nameEn : s.name }));
}

// The home page: the analyze box at the top (client: search, POST analyze, batch, live task
// panel), then the trader's cockpit: indices, the watchlist with verdicts, open signals and today's
// alert triggers, all from one server read (lib/home/cockpit.ts).
export default async function HomePage() {
  const { locale, t } = await getI18n();
  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <h1 className="text-xl font-semibold tracking-tight">{t.pages.analyze.title}</h1>
      <p className="mt-1 text-sm text-muted">{t.analyzeUi.intro}</p>
      <Suspense fallback={null}>
        <FirstRun />
      </Suspense>
      <div className="mt-4">
        <AnalyzeWorkbench
          t={t.analyzeUi}
          tt={t.tasksUi}
          locale={locale}
          disclaimer={t.shell.disclaimer}
          samples={sampleOnlyStocks(locale === "en" ? "en" : "zh")}
        />
      </div>
      <div className="mt-5">
        <Suspense fallback={<CockpitSkeleton label={t.homeUi.loading} />}>
          <Cockpit />
        </Suspense>
      </div>
    </div>
  );
}
