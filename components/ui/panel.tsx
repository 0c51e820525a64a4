import type { ReactNode } from "react";
import { cx } from "./cx";

// A bordered surface: the basic container of every page section.
export function Panel({ className, children }: { className?: string; children: ReactNode }) {
  return <section className={cx("rounded-md border border-line bg-surface", className)}>{children}</section>;
}
