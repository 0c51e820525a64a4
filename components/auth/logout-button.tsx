"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { cx } from "@/components/ui/cx";

// Ends the admin session (POST /api/v1/auth/logout) and goes to the login page.
export function LogoutButton({ label, statusLabel }: { label: string; statusLabel: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);

  async function logout() {
    setBusy(true);
    try {
      await fetch("/api/v1/auth/logout", { method: "POST", credentials: "same-origin" });
    } finally {
      // Even if the call failed the login page is the right place: it shows whether a session is still live.
      router.replace("/login");
      // Drop the client cache of the pages seen while logged in.
      router.refresh();
    }
  }

  return (
    <button
      type="button"
      onClick={logout}
      disabled={busy}
      title={`${statusLabel} · ${label}`}
      className={cx(
        "inline-flex h-7 shrink-0 items-center gap-1.5 rounded-md border border-line bg-subtle px-2 text-xs font-medium text-muted",
        "hover:text-fg focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent disabled:cursor-progress",
      )}
    >
      <span aria-hidden="true" className="size-1.5 rounded-full bg-emerald-500" />
      {label}
    </button>
  );
}
