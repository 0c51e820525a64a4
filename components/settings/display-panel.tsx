import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { readPriceColors } from "@/lib/theme/read-price-colors";
import { PriceColorsControl } from "./price-colors-control";

// The display preferences of this browser (kept in cookies, not in the server's settings): today the
// price colour convention. Read on the server so the page shows the current choice from the first paint.
export async function DisplayPanel({ t }: { t: Dictionary["displayUi"] }) {
  const { choice, colors } = await readPriceColors();
  return <PriceColorsControl t={t} choice={choice} colors={colors} />;
}
