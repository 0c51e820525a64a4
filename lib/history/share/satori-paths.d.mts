/** satori's default export (its own types), loaded from the fast copy or the stock module (satori-paths.mjs). */
export type Satori = typeof import("satori").default;
export const STOCK_PATH_WRITER: string;
export const STOCK_ROUNDING: string;
export const STOCK_SHAPED_RUNS: string;
export const STOCK_ENGINE_HEAD: string;
export const STOCK_SHAPED_RUN_LOOKUP: string;
export const STOCK_CONTENT_MASK: string;
export const STOCK_ALIGNMENT_MAPS: string[];
export const GLYPH_SINK: string;
export function writeTenths(bytes: Uint8Array, at: number, value: number): number;
export function fastPathSource(stock: string): string | null;
export function stockSatoriFile(): string;
export function fastSatoriFile(stockFile?: string): string;
export function writeFastSatori(stockFile?: string, target?: string): boolean;
export function loadSatori(file?: string): Promise<{ satori: Satori; fastPaths: boolean; failure?: string }>;
