import { priceColorCss } from "@/lib/theme/price-colors";
import { readPriceColors } from "@/lib/theme/read-price-colors";

/**
 * The page's price colours as CSS custom properties on :root, rendered once by the (ui) layout from
 * the dsa_colors cookie (else the UI language). Every up/down class of components/analysis/tone.ts and the
 * canvas charts read these variables, so server and client render alike with no flash, and a changed setting
 * applies on the next render (router.refresh()).
 */
export async function PriceColorStyle() {
  const { colors } = await readPriceColors();
  return <style id="price-colors" data-colors={colors} dangerouslySetInnerHTML={{ __html: priceColorCss(colors) }} />;
}
