import type { ReactNode } from "react";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import { CARD_BLOCK, CARD_HEAD } from "@/components/ui/table-cards";
import { TH } from "./format";
import { SectionTitle } from "./section-title";

// The Data page's two tables share their frame: a titled panel, a note when empty, and a table whose head hides on
// a phone (each row is then a card) and which scrolls sideways on wider screens below its minimum width.

export function TableFrame({
  id,
  title,
  aside,
  emptyText,
  testId,
  minWidth,
  columns,
  rows,
}: {
  id: string;
  title: ReactNode;
  aside?: ReactNode;
  emptyText: string;
  testId: string;
  /** A Tailwind min-width class for wide screens, e.g. sm:min-w-[60rem]. */
  minWidth: string;
  columns: readonly string[];
  /** The body's rows; none shows emptyText instead of the table. */
  rows: ReactNode[];
}) {
  return (
    <Panel>
      <SectionTitle id={id} aside={aside}>
        {title}
      </SectionTitle>
      {rows.length === 0 ? (
        <p className="px-3 py-6 text-center text-sm text-muted">{emptyText}</p>
      ) : (
        <div className="sm:overflow-x-auto">
          <table
            aria-labelledby={id}
            data-testid={testId}
            className={cx("w-full border-collapse text-sm", minWidth, CARD_BLOCK)}
          >
            <thead className={cx("border-b border-line bg-subtle/60", CARD_HEAD)}>
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col" className={TH}>
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className={cx("divide-y divide-line", CARD_BLOCK)}>{rows}</tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}
