import type { ButtonHTMLAttributes, ReactNode } from "react";
import { cx } from "./cx";

// A row of mutually exclusive buttons (language, theme); the chosen one carries aria-pressed.
export function SegmentedGroup({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="group" aria-label={label} className="inline-flex shrink-0 rounded-md border border-line bg-subtle p-0.5">
      {children}
    </div>
  );
}

type SegmentedButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type"> & { selected: boolean };

export function SegmentedButton({ selected, className, children, ...props }: SegmentedButtonProps) {
  return (
    <button
      type="button"
      aria-pressed={selected}
      className={cx(
        "inline-flex h-6 min-w-7 items-center justify-center rounded px-1.5 text-xs font-medium",
        "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent",
        "disabled:cursor-progress",
        selected ? "bg-surface text-fg shadow-sm dark:bg-line" : "text-muted hover:text-fg",
        className,
      )}
      {...props}
    >
      {children}
    </button>
  );
}
