"use client";

import { useRouter } from "next/navigation";
import { useState, type ComponentType, type SVGProps } from "react";
import { MonitorIcon, MoonIcon, SunIcon } from "@/components/ui/icons";
import { SegmentedButton, SegmentedGroup } from "@/components/ui/segmented";
import { THEME_CHOICES, THEME_COOKIE, themeClassName, type ThemeChoice } from "@/lib/theme/theme";
import { writePreferenceCookie } from "./preference-cookie";

export type ThemeLabels = { group: string } & Record<ThemeChoice, string>;

const ICONS: Record<ThemeChoice, ComponentType<SVGProps<SVGSVGElement>>> = {
  light: SunIcon,
  dark: MoonIcon,
  system: MonitorIcon,
};

// Same class the server writes from the cookie, applied at once so the switch does not wait for a round trip.
function applyThemeClass(choice: ThemeChoice): void {
  const root = document.documentElement;
  root.classList.remove("light", "dark");
  const className = themeClassName(choice);
  if (className) root.classList.add(className);
}

// Light / dark / follow the system, stored in the dsa_theme cookie.
export function ThemeToggle({ current, labels }: { current: ThemeChoice; labels: ThemeLabels }) {
  const router = useRouter();
  const [choice, setChoice] = useState(current);

  function choose(next: ThemeChoice) {
    setChoice(next);
    writePreferenceCookie(THEME_COOKIE, next);
    applyThemeClass(next);
    router.refresh();
  }

  return (
    <SegmentedGroup label={labels.group}>
      {THEME_CHOICES.map((option) => {
        const Icon = ICONS[option];
        return (
          <SegmentedButton
            key={option}
            selected={option === choice}
            aria-label={labels[option]}
            title={labels[option]}
            onClick={() => choose(option)}
          >
            <Icon />
          </SegmentedButton>
        );
      })}
    </SegmentedGroup>
  );
}
