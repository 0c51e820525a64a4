import Link from "next/link";
import { BUTTON_SECONDARY } from "@/components/auth/password-input";
import { fmt } from "@/components/settings/format";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { getI18n } from "@/lib/i18n/locale";
import { marketDataReachability, type Reachability } from "@/lib/market/reachability";
import { UseSampleButton } from "./use-sample-button";

type Texts = Dictionary["setupUi"];

/** Where the CSV upload form is (components/settings/data-panel.tsx). */
export const CSV_UPLOAD_HREF = "/settings#data-files";

// One banner instead of a page of "no data" boxes: which sources failed (the reasons on hover) and the two ways
// forward offline. Nothing when a source answers or sample data stands in.
export function DataUnreachableBanner({ reach, t }: { reach: Reachability; t: Texts }) {
  if (!reach.unreachable) return null;
  const providers = reach.network.map((r) => r.provider).join(t.listSeparator);
  const reasons = reach.network.map((r) => `${r.provider}: ${r.reason ?? ""}`).join("\n");
  return (
    <div
      role="alert"
      data-testid="data-unreachable"
      className="rounded-md border border-red-500/40 bg-red-50 px-3 py-2.5 text-sm text-red-900 dark:border-red-400/30 dark:bg-red-950/50 dark:text-red-100"
    >
      <p className="font-semibold">{t.unreachableTitle}</p>
      <p className="mt-0.5" title={reasons}>
        {fmt(t.unreachable, { providers })}
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <UseSampleButton t={t} />
        <Link href={CSV_UPLOAD_HREF} className={BUTTON_SECONDARY}>
          {t.uploadCsv}
        </Link>
      </div>
    </div>
  );
}

/** The banner with its own reads, for pages that stream it in (wrap in Suspense: the probe may take seconds). */
export async function DataUnreachableNotice({ className }: { className?: string }) {
  const [{ t }, reach] = await Promise.all([getI18n(), marketDataReachability()]);
  if (!reach.unreachable) return null;
  return (
    <div className={className}>
      <DataUnreachableBanner reach={reach} t={t.setupUi} />
    </div>
  );
}
