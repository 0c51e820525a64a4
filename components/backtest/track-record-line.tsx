import Link from "next/link";
import { trackRecordText, type TrackRecord } from "@/lib/backtest/track-record";

/** The report page's one-line track record, in the UI language, linking to the backtest it comes from. */
export function TrackRecordLine({ record, locale, label }: { record: TrackRecord; locale: string; label: string }) {
  return (
    <p data-testid="track-record" className="rounded-md border border-line bg-surface px-3 py-2 text-sm tabular-nums">
      {trackRecordText(record, locale === "en" ? "en" : "zh")}{" "}
      <Link
        href={`/backtest?id=${encodeURIComponent(record.backtestId)}`}
        className="font-medium text-accent underline-offset-2 hover:underline"
      >
        {label}
      </Link>
    </p>
  );
}
