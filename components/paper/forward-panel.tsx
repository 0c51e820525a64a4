import Link from "next/link";
import { fmt } from "@/components/settings/format";
import { Panel } from "@/components/ui/panel";
import type { PaperForStock } from "@/lib/paper/for-stock";
import { accountHref, percent, type PaperTexts } from "./format";

// Beside a report: what the paper accounts that trade this stock have done with the calls since they started.
export function PaperForwardPanel({ t, rows }: { t: PaperTexts; rows: readonly PaperForStock[] }) {
  if (rows.length === 0) return null;
  return (
    <Panel className="p-3">
      <h2 className="text-sm font-semibold">{t.forwardTitle}</h2>
      <ul className="mt-1 space-y-1 text-sm" data-testid="paper-forward">
        {rows.map((r) => (
          <li key={r.account_id} data-account-id={r.account_id} className="tabular-nums">
            <Link href={accountHref(r.account_id)} className="text-accent underline-offset-2 hover:underline">
              {r.name}
            </Link>
            {" · "}
            {r.position
              ? fmt(t.forwardHeld, { quantity: r.position.quantity, cost: r.position.avg_cost })
              : t.forwardFlat}
            {" · "}
            {r.trades > 0
              ? fmt(t.forwardTrades, { trades: r.trades, wins: r.wins, mean: percent(r.mean_return_pct ?? 0) })
              : t.forwardNoTrades}
          </li>
        ))}
      </ul>
    </Panel>
  );
}
