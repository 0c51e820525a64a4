"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { SegmentedButton, SegmentedGroup } from "@/components/ui/segmented";
import { LOCALE_COOKIE, LOCALE_NAMES, LOCALES, type Locale } from "@/lib/i18n/config";
import { writePreferenceCookie } from "./preference-cookie";

// Stores the language in the dsa_lang cookie and re-renders the server components in that language.
export function LanguageSwitch({ current, label }: { current: Locale; label: string }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();

  function choose(locale: Locale) {
    if (locale === current) return;
    writePreferenceCookie(LOCALE_COOKIE, locale);
    startTransition(() => router.refresh());
  }

  return (
    <SegmentedGroup label={label}>
      {LOCALES.map((locale) => (
        <SegmentedButton
          key={locale}
          lang={locale}
          selected={locale === current}
          disabled={pending}
          onClick={() => choose(locale)}
        >
          {LOCALE_NAMES[locale]}
        </SegmentedButton>
      ))}
    </SegmentedGroup>
  );
}
