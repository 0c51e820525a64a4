import Link from "next/link";
import { fmt } from "@/components/settings/format";
import { pageMetadata } from "@/components/shell/coming-soon-page";
import { signalsHref, type SignalUrlState } from "@/components/signals/href";
import { SignalDrawer } from "@/components/signals/signal-drawer";
import { SignalFilters, type SignalFilterValues } from "@/components/signals/signal-filters";
import { SignalTable } from "@/components/signals/signal-table";
import { StatsPanel } from "@/components/signals/stats-panel";
import { Pagination } from "@/components/ui/pagination";
import { Panel } from "@/components/ui/panel";
import { ApiError } from "@/lib/errors/api-error";
import { readPageQuery, firstParam, type SearchParams } from "@/lib/http/page-query";
import { getI18n } from "@/lib/i18n/locale";
import { displayName, nameLanguage, type NameLanguage } from "@/lib/market/symbols";
import { getFeedback } from "@/lib/signals/feedback";
import { signalOutcomes } from "@/lib/signals/outcomes";
import { getSignal, listSignals } from "@/lib/signals/read";
import {
  ZDecisionSignalListQuery,
  ZOutcomeStatsQuery,
  type TDecisionSignalItem,
  type TDecisionSignalListQuery,
} from "@/lib/signals/schemas";
import { outcomeStats } from "@/lib/signals/stats";

export const dynamic = "force-dynamic";
export const generateMetadata = () => pageMetadata("signals");

type SignalsPageProps = { searchParams: Promise<SearchParams> };

const QUERY_FIELDS = [
  "market",
  "stock_code",
  "action",
  "status",
  "created_from",
  "created_to",
  "holding_only",
  "page",
  "page_size",
] as const;

/** The list; a date range the wrong way round (the schema cannot see it) is dropped like any invalid filter. */
async function listOrDropDates(query: TDecisionSignalListQuery, invalid: string[]) {
  try {
    return { query, list: await listSignals(query) };
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "validation_error") throw error;
    invalid.push("created_from", "created_to");
    const rest = { ...query, created_from: undefined, created_to: undefined };
    return { query: rest, list: await listSignals(rest) };
  }
}

/** The signal with its stock named in the UI language (a signal stores the name of the report it came from). */
function inLanguage(item: TDecisionSignalItem, language: NameLanguage): TDecisionSignalItem {
  return {
    ...item,
    stock_name: displayName({ market: item.market, code: item.stock_code }, language, item.stock_name),
  };
}

async function drawerData(id: number) {
  try {
    const [signal, outcomes, feedback] = await Promise.all([getSignal(id), signalOutcomes(id), getFeedback(id)]);
    return { signal, outcomes: outcomes.items, feedback };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { signal: null, outcomes: [], feedback: null };
    throw error;
  }
}

// The Signals page. The URL drives the filters, the page and the open drawer (?signal=<id>); the
// server reads lib/signals directly (the functions behind the decision-signal API). Only the drawer's feedback and
// status buttons and the outcome run are client code, and they refresh the page after calling the API.
export default async function SignalsPage({ searchParams }: SignalsPageProps) {
  const [{ t, locale }, params] = await Promise.all([getI18n(), searchParams]);
  const texts = t.signalsUi;
  const language = nameLanguage(locale);
  const parsed = readPageQuery(params, ZDecisionSignalListQuery, QUERY_FIELDS, ZDecisionSignalListQuery.parse({}));
  const invalid = parsed.invalid;
  const openText = firstParam(params.signal);
  const openId = openText && /^\d+$/.test(openText) && Number(openText) > 0 ? Number(openText) : null;

  const [{ query, list }, stats, drawer] = await Promise.all([
    listOrDropDates(parsed.query, invalid),
    outcomeStats(ZOutcomeStatsQuery.parse({})),
    openId !== null ? drawerData(openId) : Promise.resolve(null),
  ]);
  const state: SignalUrlState = { ...query, signal: openId };
  const pageCount = Math.max(1, Math.ceil(list.total / query.page_size));
  const filters: SignalFilterValues = {
    market: query.market,
    stock_code: query.stock_code,
    action: query.action,
    status: query.status,
    created_from: query.created_from,
    created_to: query.created_to,
    holding_only: query.holding_only,
  };
  const filtered = Object.values(filters).some(Boolean);

  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <h1 className="text-xl font-semibold tracking-tight">{t.pages.signals.title}</h1>
      <p className="mt-1 text-sm text-muted">{texts.intro}</p>

      <div className="mt-4 space-y-3">
        <StatsPanel t={texts} stats={stats} />

        <Panel className="px-3 py-2.5">
          <SignalFilters t={texts} values={filters} />
          {invalid.length > 0 ? (
            <p role="alert" className="mt-2 text-xs font-medium text-amber-700 dark:text-amber-400">
              {fmt(texts.invalidFilter, { fields: [...new Set(invalid)].join(", ") })}
            </p>
          ) : null}
        </Panel>

        <Panel>
          <div className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-3 py-2">
            <h2 className="text-sm font-semibold">
              {texts.listTitle}
              <span className="ml-2 text-xs font-normal text-muted tabular-nums" data-testid="signals-total">
                {fmt(texts.total, { total: list.total })}
              </span>
            </h2>
          </div>
          {list.items.length > 0 ? (
            <SignalTable
              t={texts}
              items={list.items.map((item) => inLanguage(item, language))}
              openId={openId}
              hrefFor={(id) => signalsHref(state, { signal: id })}
            />
          ) : (
            <div data-testid="signals-empty" className="px-4 py-8 text-center">
              <p className="text-sm font-medium">
                {filtered || list.total > 0 ? texts.emptyFilteredTitle : texts.emptyTitle}
              </p>
              <p className="mt-1 text-sm text-muted">
                {filtered || list.total > 0 ? texts.emptyFilteredBody : texts.emptyBody}
              </p>
              <Link
                href={filtered ? "/signals" : "/"}
                className="mt-3 inline-block text-sm text-accent underline-offset-2 hover:underline"
              >
                {filtered ? texts.reset : texts.emptyLink}
              </Link>
            </div>
          )}
          {pageCount > 1 ? (
            <div className="border-t border-line px-3 py-2">
              <Pagination
                page={query.page}
                pageCount={pageCount}
                href={(p) => signalsHref(state, { page: p, signal: null })}
                labels={{
                  nav: texts.pagination,
                  previous: texts.prevPage,
                  next: texts.nextPage,
                  status: fmt(texts.pageOf, { page: query.page, pages: pageCount }),
                }}
              />
            </div>
          ) : null}
        </Panel>
      </div>

      {openId !== null && drawer ? (
        <SignalDrawer
          key={openId}
          t={texts}
          signalId={openId}
          signal={drawer.signal && inLanguage(drawer.signal, language)}
          outcomes={drawer.outcomes}
          feedback={drawer.feedback}
          closeHref={signalsHref(state, { signal: null })}
        />
      ) : null}
    </div>
  );
}
