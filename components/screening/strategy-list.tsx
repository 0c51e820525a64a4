import { Badge } from "@/components/ui/badge";
import { Panel } from "@/components/ui/panel";
import { DeleteStrategyButton } from "./delete-strategy-button";
import { codeLabel } from "@/lib/i18n/labels";
import type { TStrategiesResponse } from "@/lib/screening/schemas";
import type { ScreeningTexts } from "./format";

// Every strategy in one sentence, so a trader knows what a run will look for before picking one.
export function StrategyList({ t, strategies }: { t: ScreeningTexts; strategies: TStrategiesResponse["strategies"] }) {
  return (
    <Panel className="p-3">
      <h2 id="screening-strategies" className="text-sm font-semibold">
        {t.strategiesTitle}
      </h2>
      <ul aria-labelledby="screening-strategies" className="mt-2 grid gap-x-4 gap-y-2 sm:grid-cols-2">
        {strategies.map((s) => (
          <li key={s.id} data-testid="strategy-item" data-strategy={s.id} className="min-w-0 text-sm">
            <span className="font-medium">{s.name}</span>
            <span className="ml-1.5 text-xs text-muted">{codeLabel(t.categories, s.category)}</span>
            {s.builtin ? null : (
              <>
                <span className="ml-1.5">
                  <Badge tone="accent">{t.custom}</Badge>
                </span>
                <DeleteStrategyButton t={t} id={s.id} name={s.name} />
              </>
            )}
            <p className="text-xs text-muted">{s.description}</p>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
