import Link from "next/link";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import type { TSetupStatusResponse } from "@/lib/config/setup-status-schemas";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { CSV_UPLOAD_HREF } from "./data-unreachable-banner";

type Texts = Dictionary["setupUi"];
type CheckKey = keyof Texts["checks"];

const MARK: Record<TSetupStatusResponse["checks"][number]["status"], string> = {
  configured: "✓",
  inherited: "✓",
  optional: "○",
  needs_action: "!",
};

// The setup status (GET /system/config/setup/status) as a checklist on the home page, shown until every
// required step is done. The API's titles and messages are English; the UI words each known check itself.
export function SetupChecklist({ status, t }: { status: TSetupStatusResponse; t: Texts }) {
  if (status.is_complete) return null;
  return (
    <Panel className="px-3 py-2.5">
      <div data-testid="setup-checklist">
        <h2 className="text-sm font-semibold">{t.title}</h2>
        <p className="text-xs text-muted">{t.intro}</p>
        <ul className="mt-2 grid gap-1.5 sm:grid-cols-2">
          {status.checks.map((check) => {
            const known = Object.hasOwn(t.checks, check.key) ? t.checks[check.key as CheckKey] : null;
            const todo = check.status === "needs_action";
            const href = check.key === "MARKET_DATA_SOURCES" && todo ? CSV_UPLOAD_HREF : "/settings";
            return (
              <li
                key={check.key}
                data-testid="setup-check"
                data-key={check.key}
                data-status={check.status}
                className="flex min-w-0 gap-2 text-xs"
              >
                <span
                  aria-hidden="true"
                  className={cx(
                    "mt-0.5 inline-flex size-4 shrink-0 items-center justify-center rounded-full text-[10px] font-bold",
                    todo
                      ? "bg-red-600 text-white"
                      : check.status === "optional"
                        ? "border border-line text-muted"
                        : "bg-emerald-600 text-white",
                  )}
                >
                  {MARK[check.status]}
                </span>
                <span className="min-w-0">
                  <span className="font-medium">{known?.title ?? check.title}</span>{" "}
                  <span className={todo ? "text-red-700 dark:text-red-300" : "text-muted"}>
                    {t.status[check.status]}
                    {check.required ? ` · ${t.required}` : ""}
                  </span>
                  {check.status === "needs_action" || check.status === "optional" ? (
                    <span className="block text-muted">
                      {known?.hint ?? check.next_step ?? check.message}{" "}
                      <Link href={href} className="text-accent hover:underline">
                        {t.settings}
                      </Link>
                    </span>
                  ) : null}
                </span>
              </li>
            );
          })}
        </ul>
      </div>
    </Panel>
  );
}
