"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { DOWN_TEXT, UP_TEXT } from "@/components/analysis/tone";
import { writePreferenceCookie } from "@/components/shell/preference-cookie";
import { cx } from "@/components/ui/cx";
import { Panel } from "@/components/ui/panel";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import {
  PRICE_COLOR_CHOICES,
  PRICE_COLORS_COOKIE,
  type PriceColorChoice,
  type PriceColors,
} from "@/lib/theme/price-colors";

type Texts = Dictionary["displayUi"];

const LABELS: Record<PriceColorChoice, keyof Texts> = { red_up: "redUp", green_up: "greenUp", auto: "auto" };

// 涨跌颜色 / Price colours: red up, green up, or follow the UI language (the default). The choice goes into the
// dsa_colors cookie; router.refresh() renders the page again, and the (ui) layout's PriceColorStyle with it, so
// every price, change, candle and chart of every page takes the new colours.
export function PriceColorsControl({
  t,
  choice: initial,
  colors,
}: {
  t: Texts;
  choice: PriceColorChoice;
  colors: PriceColors;
}) {
  const router = useRouter();
  const [choice, setChoice] = useState(initial);
  const name = useId();

  function choose(next: PriceColorChoice) {
    setChoice(next);
    writePreferenceCookie(PRICE_COLORS_COOKIE, next);
    router.refresh();
  }

  return (
    <Panel className="flex flex-col gap-2 px-4 py-3">
      <h2 className="text-sm font-semibold">{t.title}</h2>
      <fieldset data-testid="price-colors" data-colors={colors} className="flex flex-col gap-1.5">
        <legend className="text-xs font-semibold text-muted">{t.priceColors}</legend>
        <p className="text-xs leading-5 text-muted">{t.priceColorsHint}</p>
        <div className="flex flex-col gap-1 text-sm">
          {PRICE_COLOR_CHOICES.map((option) => (
            <label key={option} className="flex cursor-pointer items-center gap-2">
              <input
                type="radio"
                name={name}
                value={option}
                checked={choice === option}
                onChange={() => choose(option)}
                className="size-4 shrink-0 accent-(--dsa-accent)"
              />
              <span>
                {t[LABELS[option]]}
                {option === "auto" ? <span className="ml-1 text-xs text-muted">{t.autoNote}</span> : null}
              </span>
            </label>
          ))}
        </div>
        <p className="flex items-baseline gap-3 text-xs" data-testid="price-colors-preview">
          <span className="text-muted">{t.preview}</span>
          <span data-direction="up" className={cx("font-semibold tabular-nums", UP_TEXT)}>
            {t.previewUp}
          </span>
          <span data-direction="down" className={cx("font-semibold tabular-nums", DOWN_TEXT)}>
            {t.previewDown}
          </span>
        </p>
      </fieldset>
    </Panel>
  );
}
