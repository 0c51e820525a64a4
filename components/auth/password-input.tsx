import type { InputHTMLAttributes } from "react";
import { cx } from "@/components/ui/cx";

export const FIELD_INPUT =
  "h-8 w-full min-w-0 rounded border border-line bg-surface px-2 text-sm text-fg placeholder:text-muted/70 " +
  "focus-visible:outline-2 focus-visible:-outline-offset-1 focus-visible:outline-accent disabled:cursor-not-allowed disabled:bg-subtle disabled:text-muted";

export const BUTTON_BASE =
  "inline-flex h-8 shrink-0 items-center justify-center gap-1.5 rounded px-3 text-sm font-medium whitespace-nowrap " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-50";
export const BUTTON_PRIMARY = cx(BUTTON_BASE, "bg-accent text-accent-fg hover:opacity-90");
export const BUTTON_SECONDARY = cx(BUTTON_BASE, "border border-line bg-surface text-fg hover:bg-subtle");

// A labelled password input (label above, as in every form of the login and auth settings).
export function PasswordField({
  label,
  id,
  ...props
}: { label: string; id: string } & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "id">) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {label}
      </label>
      <input id={id} type="password" className={FIELD_INPUT} {...props} />
    </div>
  );
}

export function FormMessage({ tone, children }: { tone: "error" | "success"; children: string }) {
  return (
    <p
      role={tone === "error" ? "alert" : "status"}
      className={cx(
        "rounded border px-2.5 py-1.5 text-sm",
        tone === "error"
          ? "border-red-300 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300"
          : "border-emerald-300 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-300",
      )}
    >
      {children}
    </p>
  );
}
