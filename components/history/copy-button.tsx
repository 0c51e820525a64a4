"use client";

import { useEffect, useState } from "react";
import { cx } from "@/components/ui/cx";

/** Writes text to the clipboard; where the async clipboard is unavailable (plain http) it falls back to execCommand. */
async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("copy refused");
}

export function CopyButton({
  text,
  label,
  copiedLabel,
  failedLabel,
  className,
}: {
  text: string;
  label: string;
  copiedLabel: string;
  failedLabel: string;
  className?: string;
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");

  useEffect(() => {
    if (state !== "copied") return;
    const timer = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        onClick={() =>
          writeClipboard(text).then(
            () => setState("copied"),
            () => setState("failed"),
          )
        }
        className={cx(
          "inline-flex h-7 items-center rounded-md border border-line bg-surface px-2.5 text-xs font-medium hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent",
          className,
        )}
      >
        {state === "copied" ? copiedLabel : label}
      </button>
      <span role="status" className="text-xs text-muted">
        {state === "failed" ? failedLabel : ""}
      </span>
    </span>
  );
}
