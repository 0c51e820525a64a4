import Link from "next/link";
import { HistoryFilters, type HistoryFilterValues } from "@/components/history/history-filters";
import { HistoryTable } from "@/components/history/history-table";
import { DeleteStockButton } from "@/components/history/delete-buttons";
import { StockSidebar } from "@/components/history/stock-sidebar";
import { fmt } from "@/components/settings/format";
import { pageMetadata } from "@/components/shell/coming-soon-page";
import { Pagination } from "@/components/ui/pagination";
import { Panel } from "@/components/ui/panel";
import { listHistory } from "@/lib/history/list";
import { readPageQuery, type SearchParams } from "@/lib/http/page-query";
import { HISTORY_PAGE_SIZE, ZHistoryListQuery, type THistoryListQuery } from "@/lib/history/schemas";
import { listHistoryStocks } from "@/lib/history/stocks";
import { withUiStockName } from "@/lib/history/stock-name";
import { getI18n } from "@/lib/i18n/locale";
import { nameLanguage } from "@/lib/market/symbols";

export const dynamic = "force-dynamic";
export const generateMetadata = () => pageMetadata("history");

type HistoryPageProps = { searchParams: Promise<SearchParams> };

const FIELDS = ["stock_code", "report_type", "start_date", "end_date", "page", "limit"] as const;

function href(
  query: THistoryListQuery,
  changes: Partial<Record<(typeof FIELDS)[number], string | number | null>>,
): string {
  const params = new URLSearchParams();
  const merged = { ...query, ...changes };
  for (const field of FIELDS) {
    const value = merged[field];
    if (value === null || value === undefined || value === "") continue;
    if (field === "page" && Number(value) === 1) continue;
    if (field === "limit" && Number(value) === HISTORY_PAGE_SIZE.default) continue;
    params.set(field, String(value));
  }
  const text = params.toString();
  return text ? `/history?${text}` : "/history";
}

// The History page. The URL drives everything (filters, page), read on the server through
// lib/history; only the row selection and the deletes run in the browser (they call the History API).
export default async function HistoryPage({ searchParams }: HistoryPageProps) {
  const [{ t, locale }, params] = await Promise.all([getI18n(), searchParams]);
  const texts = t.historyUi;
  const language = nameLanguage(locale);
  const { query, invalid } = readPageQuery(params, ZHistoryListQuery, FIELDS, {
    page: 1,
    limit: HISTORY_PAGE_SIZE.default,
  });
  const code = query.stock_code?.trim() || null;
  const [list, stocks, stockTotal] = await Promise.all([
    listHistory(query),
    listHistoryStocks({ limit: 200 }),
    code ? listHistory({ stock_code: code, page: 1, limit: 1 }).then((r) => r.total) : Promise.resolve(0),
  ]);
  // The lists name each stock in the UI language; the API's names follow each report's language.
  const items = list.items.map((item) => withUiStockName(item, language));
  const stockItems = stocks.items.map((stock) => withUiStockName(stock, language));
  const pageCount = Math.max(1, Math.ceil(list.total / query.limit));
  const filters: HistoryFilterValues = {
    stock_code: query.stock_code,
    report_type: query.report_type,
    start_date: query.start_date,
    end_date: query.end_date,
  };
  const filtered = Object.values(filters).some(Boolean);
  const stockRow = code ? stockItems.find((s) => s.stock_code.toUpperCase() === code.toUpperCase()) : undefined;
  const stockName = stockRow?.stock_name ?? items.find((i) => i.report_type !== "market_review")?.stock_name ?? code;

  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <h1 className="text-xl font-semibold tracking-tight">{t.pages.history.title}</h1>
      <p className="mt-1 text-sm text-muted">{texts.intro}</p>

      <div className="mt-4 grid grid-cols-1 gap-3 lg:grid-cols-[15rem_minmax(0,1fr)]">
        <aside className="min-w-0">
          <StockSidebar
            t={texts}
            stocks={stockItems}
            total={stocks.total}
            activeCode={code}
            hrefFor={(c) => href(query, { stock_code: c, page: 1 })}
          />
        </aside>

        <div className="min-w-0 space-y-3">
          <Panel className="px-3 py-2.5">
            <HistoryFilters t={texts} values={filters} />
            {invalid.length > 0 ? (
              <p role="alert" className="mt-2 text-xs font-medium text-amber-700 dark:text-amber-400">
                {fmt(texts.invalidFilter, { fields: invalid.join(", ") })}
              </p>
            ) : null}
          </Panel>

          <Panel>
            <div className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-3 py-2">
              <h2 className="text-sm font-semibold">
                {texts.listTitle}
                <span className="ml-2 text-xs font-normal text-muted tabular-nums" data-testid="history-total">
                  {fmt(texts.total, { total: list.total })}
                </span>
              </h2>
              {code && stockTotal > 0 ? (
                <DeleteStockButton t={texts} code={code} name={stockName ?? code} count={stockTotal} />
              ) : null}
            </div>
            {items.length > 0 ? (
              <HistoryTable t={texts} items={items} />
            ) : (
              <div data-testid="history-empty" className="px-4 py-8 text-center">
                <p className="text-sm font-medium">
                  {filtered || list.total > 0 ? texts.emptyFilteredTitle : texts.emptyTitle}
                </p>
                <p className="mt-1 text-sm text-muted">
                  {filtered || list.total > 0 ? texts.emptyFilteredBody : texts.emptyBody}
                </p>
                <Link
                  href={filtered || list.total > 0 ? "/history" : "/"}
                  className="mt-3 inline-block text-sm text-accent underline-offset-2 hover:underline"
                >
                  {filtered || list.total > 0 ? texts.reset : texts.emptyLink}
                </Link>
              </div>
            )}
            {pageCount > 1 ? (
              <div className="border-t border-line px-3 py-2">
                <Pagination
                  page={query.page}
                  pageCount={pageCount}
                  href={(p) => href(query, { page: p })}
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
      </div>
    </div>
  );
}
