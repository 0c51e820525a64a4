import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { SERVICE_VERSION } from "@/lib/version";

export function AppFooter({ t }: { t: Dictionary }) {
  return (
    <footer className="border-t border-line">
      <div className="mx-auto flex max-w-7xl flex-col gap-1 px-4 py-3 text-xs leading-5 text-muted sm:flex-row sm:items-start sm:justify-between sm:gap-6">
        <p>{t.shell.disclaimer}</p>
        <p className="shrink-0 whitespace-nowrap tabular-nums">
          {t.shell.brand} · {t.shell.version} {SERVICE_VERSION}
        </p>
      </div>
    </footer>
  );
}
