import "server-only";
import { cookies } from "next/headers";
import { getLocale } from "@/lib/i18n/locale";
import {
  PRICE_COLORS_COOKIE,
  priceColorChoice,
  resolvePriceColors,
  type PriceColorChoice,
  type PriceColors,
} from "./price-colors";

// The request's price colour convention: the dsa_colors cookie when it names one, else the UI
// language's default (zh-CN red up, en green up).
export async function readPriceColors(): Promise<{ choice: PriceColorChoice; colors: PriceColors }> {
  const [jar, locale] = await Promise.all([cookies(), getLocale()]);
  const value = jar.get(PRICE_COLORS_COOKIE)?.value;
  return { choice: priceColorChoice(value), colors: resolvePriceColors(value, locale) };
}
