import { RunHistory } from "@/components/screening/run-history";
import { RunView } from "@/components/screening/run-view";
import { ScreenForm } from "@/components/screening/screen-form";
import { StrategyEditor } from "@/components/screening/strategy-editor";
import { StrategyList } from "@/components/screening/strategy-list";
import { METRIC_TEXT } from "@/lib/screening/metrics";
import { METRICS } from "@/lib/screening/strategy-schema";
import { fmt } from "@/components/settings/format";
import { pageMetadata } from "@/components/shell/coming-soon-page";
import { Panel } from "@/components/ui/panel";
import { ApiError } from "@/lib/errors/api-error";
import { firstParam, type SearchParams } from "@/lib/http/page-query";
import { getI18n } from "@/lib/i18n/locale";
import { getRun, listRuns, listStrategies } from "@/lib/screening/read";
import { llmConfigured } from "@/lib/analysis/llm/channels";

export const dynamic = "force-dynamic";
export const generateMetadata = () => pageMetadata("screening");

/** The run named in the URL, or null with whether it was asked for and is not stored. */
async function runOf(runId: string | undefined) {
  if (!runId) return { run: null, missing: false };
  try {
    return { run: (await getRun(runId)).result, missing: false };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { run: null, missing: true };
    throw error;
  }
}

// The Screening page: the strategies in one sentence each, the run form, the run the URL names (?run=…) and the
// latest runs, all read on the server from lib/screening (the functions behind the screening API).
export default async function ScreeningPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const [{ locale, t }, params] = await Promise.all([getI18n(), searchParams]);
  const language = locale === "en" ? "en" : "zh";
  const ts = t.screeningUi;
  const runId = firstParam(params.run);
  const [strategies, history, { run, missing }] = await Promise.all([
    listStrategies(language),
    listRuns({ limit: 10 }),
    runOf(runId),
  ]);
  const names = Object.fromEntries(strategies.strategies.map((s) => [s.id, s.name]));
  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <h1 className="text-xl font-semibold tracking-tight">{t.pages.screening.title}</h1>
      <p className="mt-1 max-w-3xl text-sm text-muted">{ts.intro}</p>
      <div className="mt-4 space-y-4">
        <Panel className="p-3">
          {strategies.enabled ? null : (
            <p role="status" className="mb-2 text-sm text-amber-800 dark:text-amber-300">
              {ts.disabled}
            </p>
          )}
          <ScreenForm
            t={ts}
            strategies={strategies.strategies.map((s) => ({ id: s.id, name: s.name }))}
            initial={{ strategy: run?.strategy ?? strategies.strategies[0]!.id, market: run?.market ?? "cn" }}
            language={language}
            disabled={!strategies.enabled}
            canRank={llmConfigured()}
          />
        </Panel>
        {missing ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {fmt(ts.notFound, { run: runId ?? "" })}
          </p>
        ) : null}
        {run ? (
          <RunView t={ts} run={run} strategyName={names[run.strategy] ?? run.strategy} language={language} />
        ) : null}
        <StrategyList t={ts} strategies={strategies.strategies} />
        <StrategyEditor
          t={ts}
          language={language}
          metrics={METRICS.map((m) => ({ value: m, label: METRIC_TEXT[m][language] }))}
        />
        <RunHistory t={ts} runs={history.runs} strategyNames={names} current={run?.run_id ?? null} />
      </div>
    </div>
  );
}
