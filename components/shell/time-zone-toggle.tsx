"use client";

import { useRouter } from "next/navigation";
import { useEffect, useTransition } from "react";
import { fmt } from "@/components/settings/format";
import { SegmentedButton, SegmentedGroup } from "@/components/ui/segmented";
import {
  isValidTimeZone,
  SERVICE_TIME_ZONE_CHOICE,
  TIME_ZONE_COOKIE,
  zoneLabel,
  type TimeZoneChoice,
} from "@/lib/i18n/time";
import { writePreferenceCookie } from "./preference-cookie";
import { useDisplayTimeZone } from "./time-zone";

export type TimeZoneLabels = {
  group: string;
  service: string;
  local: string;
  serviceTitle: string;
  localTitle: string;
};

/** The zone this browser runs in, or null when it does not say (or says something Intl cannot use). */
function browserTimeZone(): string | null {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return isValidTimeZone(zone) ? zone : null;
}

/**
 * Service zone / browser zone for every time of the UI, stored in the dsa_tz cookie: "service", or the browser's
 * IANA zone itself, so the server renders in that zone too and hydration agrees. The server re-renders on a change.
 */
export function TimeZoneToggle({ labels }: { labels: TimeZoneLabels }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const { choice, zone, serviceZone } = useDisplayTimeZone();

  function store(value: string) {
    writePreferenceCookie(TIME_ZONE_COOKIE, value);
    startTransition(() => router.refresh());
  }

  function choose(next: TimeZoneChoice) {
    if (next === choice) return;
    if (next === "service") return store(SERVICE_TIME_ZONE_CHOICE);
    const local = browserTimeZone();
    if (local) store(local);
  }

  // A "local" choice made elsewhere (the laptop travelled, another zone since): follow the browser's zone now.
  useEffect(() => {
    if (choice !== "local") return;
    const local = browserTimeZone();
    if (!local || local === zone) return;
    writePreferenceCookie(TIME_ZONE_COOKIE, local);
    router.refresh();
  }, [choice, zone, router]);

  const serviceTitle = fmt(labels.serviceTitle, { zone: serviceZone, label: zoneLabel(new Date(), serviceZone) });
  return (
    <SegmentedGroup label={labels.group}>
      <SegmentedButton
        selected={choice === "service"}
        disabled={pending}
        title={serviceTitle}
        onClick={() => choose("service")}
      >
        {labels.service}
      </SegmentedButton>
      <SegmentedButton
        selected={choice === "local"}
        disabled={pending}
        title={choice === "local" ? `${labels.localTitle} (${zone})` : labels.localTitle}
        onClick={() => choose("local")}
      >
        {labels.local}
      </SegmentedButton>
    </SegmentedGroup>
  );
}
