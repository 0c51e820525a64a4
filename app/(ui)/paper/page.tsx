import Link from "next/link";
import { AccountView } from "@/components/paper/account-view";
import { accountHref, money, percent } from "@/components/paper/format";
import { StartForm } from "@/components/paper/start-form";
import { TableFrame } from "@/components/data/table-frame";
import { fmt } from "@/components/settings/format";
import { pageMetadata } from "@/components/shell/coming-soon-page";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import { CARD, CARD_ROW, FULL, LABELLED } from "@/components/ui/table-cards";
import { ApiError } from "@/lib/errors/api-error";
import { firstParam, type SearchParams } from "@/lib/http/page-query";
import { getI18n } from "@/lib/i18n/locale";
import { listPaperAccounts, paperRecord } from "@/lib/paper/store";
import { listStrategies } from "@/lib/screening/read";

export const dynamic = "force-dynamic";
export const generateMetadata = () => pageMetadata("paper");

const TD = "px-2 py-1.5 align-top tabular-nums";

async function recordOf(id: number | null) {
  if (id === null) return { record: null, missing: false };
  try {
    return { record: await paperRecord(id), missing: false };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { record: null, missing: true };
    throw error;
  }
}

// The Paper page: start an account, the accounts with their equity and return, and the one the URL names
// (?account=…) with its equity curve, positions and fills, all read on the server from lib/paper.
export default async function PaperPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const [{ t, locale }, params] = await Promise.all([getI18n(), searchParams]);
  const tp = t.paperUi;
  const raw = firstParam(params.account);
  const id = raw && /^\d+$/.test(raw) ? Number(raw) : null;
  const [{ items }, { record, missing }, strategies] = await Promise.all([
    listPaperAccounts(),
    recordOf(id),
    listStrategies(locale === "en" ? "en" : "zh"),
  ]);
  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <h1 className="text-xl font-semibold tracking-tight">{t.pages.paper.title}</h1>
      <p className="mt-1 max-w-3xl text-sm text-muted">{tp.intro}</p>
      <div className="mt-4 space-y-4">
        <Panel className="p-3">
          <h2 className="mb-2 text-sm font-semibold">{tp.startTitle}</h2>
          <StartForm t={tp} strategies={strategies.strategies.map((s) => ({ id: s.id, name: s.name }))} />
        </Panel>
        {missing || (raw && id === null) ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {fmt(tp.notFound, { id: raw ?? "" })}
          </p>
        ) : null}
        {record ? <AccountView t={tp} record={record} /> : null}
        <TableFrame
          id="paper-accounts"
          title={tp.accountsTitle}
          emptyText={tp.noAccounts}
          testId="paper-accounts"
          minWidth="sm:min-w-[40rem]"
          columns={[tp.colName, tp.colMarket, tp.colEquity, tp.colReturn, tp.colStatus, tp.colLast]}
          rows={items.map((a) => (
            <tr
              key={a.id}
              data-testid="paper-account-row"
              data-account-id={a.id}
              aria-current={record?.account.id === a.id ? "true" : undefined}
              className={CARD_ROW}
            >
              <td className={cx(TD, CARD, FULL)}>
                <Link href={accountHref(a.id)} className="text-accent underline-offset-2 hover:underline">
                  {a.name}
                </Link>
              </td>
              <td className={cx(TD, LABELLED)} data-label={tp.colMarket}>
                {tp.markets[a.market]}
              </td>
              <td className={cx(TD, LABELLED)} data-label={tp.colEquity}>
                {money(a.equity)} {a.currency}
              </td>
              <td className={cx(TD, LABELLED)} data-label={tp.colReturn}>
                {percent(a.return_pct)}
              </td>
              <td className={cx(TD, LABELLED)} data-label={tp.colStatus}>
                {a.status === "active" ? tp.active : tp.paused}
              </td>
              <td className={cx(TD, LABELLED)} data-label={tp.colLast}>
                {a.last_session ?? tp.notYet}
              </td>
            </tr>
          ))}
        />
      </div>
    </div>
  );
}
