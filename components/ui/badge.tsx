import type { ReactNode } from "react";
import { cx } from "./cx";

type BadgeTone = "neutral" | "accent";

const TONES: Record<BadgeTone, string> = {
  neutral: "border-line bg-subtle text-muted",
  accent: "border-accent/30 bg-accent-soft text-accent",
};

export function Badge({ tone = "neutral", children }: { tone?: BadgeTone; children: ReactNode }) {
  return (
    <span
      className={cx(
        "inline-flex items-center rounded border px-1.5 py-0.5 text-xs leading-4 font-medium whitespace-nowrap",
        TONES[tone],
      )}
    >
      {children}
    </span>
  );
}
