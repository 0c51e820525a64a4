import type { Metadata } from "next";
import { Badge } from "@/components/ui/badge";
import { ClockIcon } from "@/components/ui/icons";
import { Panel } from "@/components/ui/panel";
import { getI18n } from "@/lib/i18n/locale";
import { API_DOCS_HREF, type PageKey } from "./nav-items";

// <title> of a page, in the request's language (the root layout adds " · DSA").
export async function pageMetadata(page: PageKey): Promise<Metadata> {
  const { t } = await getI18n();
  return { title: t.pages[page].title };
}

// A page that is not built yet: its title, what it will do for a trader, and a clear "coming soon" state.
export async function ComingSoonPage({ page }: { page: PageKey }) {
  const { t } = await getI18n();
  const copy = t.pages[page];
  return (
    <div className="mx-auto max-w-7xl px-4 py-5">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h1 className="text-xl font-semibold tracking-tight">{copy.title}</h1>
        <Badge tone="accent">{t.comingSoon.badge}</Badge>
      </div>
      <Panel className="mt-4 px-4 py-3">
        <p className="max-w-3xl text-sm leading-6">{copy.description}</p>
      </Panel>
      <div className="mt-3 flex items-start gap-3 rounded-md border border-dashed border-line px-4 py-5 text-sm text-muted">
        <ClockIcon width={16} height={16} className="mt-0.5 shrink-0" />
        <div>
          <p className="font-medium text-fg">{t.comingSoon.badge}</p>
          <p className="mt-1 leading-6">
            {t.comingSoon.note}{" "}
            <a href={API_DOCS_HREF} className="text-accent underline underline-offset-2">
              {t.comingSoon.docsLink}
            </a>
          </p>
        </div>
      </div>
    </div>
  );
}
