export type AShareExchange = "SH" | "SZ" | "BJ";

export const A_SHARE_EXCHANGE_NAMES: Record<AShareExchange, string> = {
  SH: "Shanghai",
  SZ: "Shenzhen",
  BJ: "Beijing",
};

export type AShareCodeClass =
  | { type: "stock"; exchange: AShareExchange }
  // 399xxx is SZSE's index range; no stock is ever numbered there.
  | { type: "szse-index-range" }
  | { type: "not-a-stock"; reason: string };

/**
 * Which exchange lists a 6-digit A-share code, from its leading digits:
 * 60/68/69 and other 6xxxxx, and 9xxxxx (900xxx B shares) → Shanghai; 92xxxx → Beijing (checked before
 * the plain 9 rule: the BSE moved its listings to 920xxx); 0/2/3 → Shenzhen (000–003 main board,
 * 200 B shares, 300/301 ChiNext) except 399xxx, the SZSE index range; 4/8 → Beijing.
 * 1, 5 and 7 number funds, bonds, repos and subscription codes, which this service does not analyse.
 */
export function classifyAShareCode(code: string): AShareCodeClass {
  if (code.startsWith("92")) return { type: "stock", exchange: "BJ" };
  if (code.startsWith("399")) return { type: "szse-index-range" };
  switch (code[0]) {
    case "6":
    case "9":
      return { type: "stock", exchange: "SH" };
    case "0":
    case "2":
    case "3":
      return { type: "stock", exchange: "SZ" };
    case "4":
    case "8":
      return { type: "stock", exchange: "BJ" };
    default:
      return {
        type: "not-a-stock",
        reason: `${code} is not a stock code: codes starting with 1, 5 or 7 are funds, bonds or subscription codes, which are not supported`,
      };
  }
}
