export function blendOver(pixels: Uint8Array, at: number, r: number, g: number, b: number, a: number): void;
export function blendPremultipliedOver(pixels: Uint8Array, at: number, pr: number, pg: number, pb: number, a: number): void;
