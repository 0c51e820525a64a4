import Link from "next/link";
import { ZonedTime } from "@/components/shell/time-zone";
import type { DataTexts } from "./format";

// What the statuses rest on: this process's calls only (counted in memory since it started), and no circuit breaker,
// so a failing source is still asked every time. The sources and their order are changed in Settings.
export function CallHistoryNote({ t, since }: { t: DataTexts; since: string }) {
  return (
    <div className="space-y-1 text-xs leading-5 text-muted" data-testid="data-footnote">
      <p>
        <ZonedTime value={since} template={t.since} /> {t.noBreaker}
      </p>
      <p>
        <Link href="/settings" className="text-accent underline-offset-2 hover:underline">
          {t.settingsLink}
        </Link>
      </p>
    </div>
  );
}
