import { directionText } from "@/components/analysis/tone";
import { fmt } from "@/components/settings/format";
import { cx } from "@/components/ui/cx";
import type { RuleReading, TargetReading } from "@/lib/alerts/rule-readings";
import { plainNumber, type AlertTexts } from "./format";

// A rule's current value and the distance to its trigger (read on the server by
// lib/alerts/rule-readings.ts). Price-level rules show the price move in percent that reaches the trigger, coloured
// by the user's up/down convention; indicator rules show their value only. A rule over a list shows the target
// closest to its trigger and how many more there are. No value (a slow provider, no data): "—", the reason on hover.

/** "+9.98%" / "-3.10%": the move in percent of the current price. */
export function signedPercent(value: number): string {
  return `${value > 0 ? "+" : ""}${value.toFixed(2)}%`;
}

function valueText(t: AlertTexts, reading: RuleReading, target: TargetReading): string {
  const value = reading.measure === "change_pct" ? `${plainNumber(target.current)}%` : plainNumber(target.current);
  const label = t.readingMeasures[reading.measure];
  const versus =
    reading.measure === "dif" || reading.measure === "k"
      ? ` / ${t.readingVersus[reading.measure]} ${plainNumber(target.threshold)}`
      : "";
  return `${label} ${value}${versus}`;
}

export function RuleReadingCell({
  t,
  reading,
  multi,
}: {
  t: AlertTexts;
  reading: RuleReading | undefined;
  multi: boolean;
}) {
  if (!reading) {
    return (
      <span className="text-muted" data-testid="alert-rule-reading" data-state="none">
        —
      </span>
    );
  }
  const first = reading.targets[0];
  if (!first) {
    return (
      <span
        className="text-xs text-muted"
        data-testid="alert-rule-reading"
        data-state="empty"
        title={reading.empty ?? undefined}
      >
        {t.readingEmpty}
      </span>
    );
  }
  const more = reading.targets.length - 1;
  const prefix = multi ? <span className="mr-1 font-medium">{first.target}</span> : null;
  if (first.current === null) {
    return (
      <span
        className="text-xs text-muted tabular-nums"
        data-testid="alert-rule-reading"
        data-state="unavailable"
        title={fmt(t.readingUnavailable, { reason: first.error ?? "" })}
      >
        {prefix}—{more > 0 ? <span className="ml-1.5">{fmt(t.readingMore, { count: more })}</span> : null}
      </span>
    );
  }
  const distance = reading.hasDistance && first.distancePct !== null ? first.distancePct : null;
  return (
    <div
      className="text-xs tabular-nums whitespace-nowrap"
      data-testid="alert-rule-reading"
      data-state="value"
      data-target={first.target}
    >
      <div>
        {prefix}
        <span data-testid="alert-rule-current" data-value={first.current} className="text-sm text-fg">
          {valueText(t, reading, first)}
        </span>
      </div>
      {distance !== null ? (
        <div
          data-testid="alert-rule-distance"
          data-distance={distance}
          title={fmt(t.readingDistanceAria, {
            target: first.target,
            current: plainNumber(first.current),
            pct: signedPercent(distance),
          })}
        >
          <span className={cx("font-medium", directionText(distance > 0 ? "up" : distance < 0 ? "down" : "flat"))}>
            {fmt(t.readingDistance, { pct: signedPercent(distance) })}
          </span>
          {first.reached ? (
            <span
              data-testid="alert-rule-reached"
              className="ml-1.5 rounded border border-line bg-subtle px-1 text-[11px] text-muted"
            >
              {t.readingReached}
            </span>
          ) : null}
        </div>
      ) : null}
      {more > 0 ? <div className="text-muted">{fmt(t.readingMore, { count: more })}</div> : null}
    </div>
  );
}
