"use client";

import type { ReactNode } from "react";
import { cx } from "@/components/ui/cx";

// A row of radio buttons drawn as a segmented control (keyboard: arrows move the choice).
export function RadioSegments<V extends string>({
  name,
  label,
  options,
  value,
  onChange,
  disabled,
}: {
  name: string;
  label: string;
  options: readonly { value: V; label: ReactNode }[];
  value: V;
  onChange: (value: V) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset className="min-w-0 shrink-0" disabled={disabled}>
      <legend className="mb-1 text-xs font-medium text-muted">{label}</legend>
      <div className="inline-flex h-9 items-center rounded-md border border-line bg-subtle p-0.5">
        {options.map((option) => (
          <label
            key={option.value}
            className={cx(
              "relative inline-flex h-full cursor-pointer items-center rounded px-2 text-xs font-medium whitespace-nowrap",
              "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent",
              value === option.value ? "bg-surface text-fg shadow-sm dark:bg-line" : "text-muted hover:text-fg",
            )}
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="sr-only"
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
