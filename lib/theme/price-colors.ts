// The price colour convention: which colour means "up". China-style users read red as up and green
// as down (A-share, HK), the others green as up and red as down. The user picks one in Settings (the dsa_colors
// preference cookie); without a choice it follows the UI language: zh-CN → red up, en → green up.
// No server-only imports here: the settings control, the charts and the share card use the same constants.

export const PRICE_COLORS_COOKIE = "dsa_colors";

/** The two conventions, as the cookie and the share-image query parameter spell them. */
export const PRICE_COLOR_CONVENTIONS = ["red_up", "green_up"] as const;
export type PriceColors = (typeof PRICE_COLOR_CONVENTIONS)[number];

/** What the user can pick in Settings: a convention, or "auto" (follow the UI language; also the default). */
export const PRICE_COLOR_CHOICES = ["auto", "red_up", "green_up"] as const;
export type PriceColorChoice = (typeof PRICE_COLOR_CHOICES)[number];

export function isPriceColors(value: unknown): value is PriceColors {
  return typeof value === "string" && (PRICE_COLOR_CONVENTIONS as readonly string[]).includes(value);
}

/** The cookie's choice: a valid convention, else "auto" (absent, "auto" or any unknown value). */
export function priceColorChoice(cookieValue: string | null | undefined): PriceColorChoice {
  return isPriceColors(cookieValue) ? cookieValue : "auto";
}

/** The default for a language: Chinese (zh, zh-CN, zh-TW …) reads red as up, every other language green. */
export function priceColorsForLanguage(language: string | null | undefined): PriceColors {
  const tag = (language ?? "").trim().toLowerCase();
  return tag === "zh" || tag.startsWith("zh-") || tag.startsWith("zh_") ? "red_up" : "green_up";
}

/** The convention of a page: the user's choice when it names one, else the UI language's default. */
export function resolvePriceColors(cookieValue: string | null | undefined, language: string): PriceColors {
  const choice = priceColorChoice(cookieValue);
  return choice === "auto" ? priceColorsForLanguage(language) : choice;
}

export type PriceHue = "red" | "green";

/** The hue of "up" and of "down" under a convention. */
export function priceHues(colors: PriceColors): { up: PriceHue; down: PriceHue } {
  return colors === "red_up" ? { up: "red", down: "green" } : { up: "green", down: "red" };
}

// The UI's shades: Tailwind's red and green (node_modules/tailwindcss/theme.css), so the price colours sit with
// the rest of the palette. components/analysis/tone.ts composes classes from these steps: text 700 (light) and
// 400 (dark) pass WCAG AA on the page surfaces, badges 700 on 50 and 300 on 950.
export const PRICE_SHADES = ["50", "300", "400", "500", "600", "700", "950"] as const;
export type PriceShade = (typeof PRICE_SHADES)[number];

const PALETTE: Record<PriceHue, Record<PriceShade, string>> = {
  red: {
    "50": "oklch(97.1% 0.013 17.38)",
    "300": "oklch(80.8% 0.114 19.571)",
    "400": "oklch(70.4% 0.191 22.216)",
    "500": "oklch(63.7% 0.237 25.331)",
    "600": "oklch(57.7% 0.245 27.325)",
    "700": "oklch(50.5% 0.213 27.518)",
    "950": "oklch(25.8% 0.092 26.042)",
  },
  green: {
    "50": "oklch(98.2% 0.018 155.826)",
    "300": "oklch(87.1% 0.15 154.449)",
    "400": "oklch(79.2% 0.209 151.711)",
    "500": "oklch(72.3% 0.219 149.579)",
    "600": "oklch(62.7% 0.194 149.214)",
    "700": "oklch(52.7% 0.154 150.069)",
    "950": "oklch(26.6% 0.065 152.934)",
  },
};

/** Canvas charts (lightweight-charts) take plain hex colours: candles, volume bars, call markers. */
export const PRICE_CHART_HEX: Record<PriceHue, string> = { red: "#ef4444", green: "#22c55e" };

/**
 * The CSS custom properties of a convention, for one <style> element of the page: --price-colors (the convention
 * itself, read by client code), --price-up-<shade> / --price-down-<shade>, and --price-up-chart / --price-down-chart.
 * Light and dark shades are both here; the classes pick one with Tailwind's dark: variant, as everywhere else.
 */
export function priceColorCss(colors: PriceColors): string {
  const hues = priceHues(colors);
  const vars = [`--price-colors:${colors}`];
  for (const side of ["up", "down"] as const) {
    const hue = hues[side];
    for (const shade of PRICE_SHADES) vars.push(`--price-${side}-${shade}:${PALETTE[hue][shade]}`);
    vars.push(`--price-${side}-chart:${PRICE_CHART_HEX[hue]}`);
  }
  return `:root{${vars.join(";")}}`;
}
