import type { ReactNode } from "react";

// The title bar of a panel of the Data page; its id names the table below it.
export function SectionTitle({ id, children, aside }: { id: string; children: ReactNode; aside?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 border-b border-line px-3 py-2">
      <h2 id={id} className="text-sm font-semibold">
        {children}
      </h2>
      {aside ? <div className="min-w-0 text-xs text-muted">{aside}</div> : null}
    </div>
  );
}
