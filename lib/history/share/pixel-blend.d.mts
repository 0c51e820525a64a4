export const PIXEL_BYTES: number;
export function blendOver(rows: Uint8Array, at: number, r: number, g: number, b: number, a: number): void;
export function blendPremultipliedOver(rows: Uint8Array, at: number, pr: number, pg: number, pb: number, a: number): void;
export function hexColor(digits: string): [number, number, number];
