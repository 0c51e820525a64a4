/** A plain box of satori's SVG (box-layer.mjs): extent, colour and corner radii [rx, ry] from the top left clockwise. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  color: [number, number, number];
  radii: [number, number][];
}

export function boxOf(tag: string, attributes: Map<string, string>): Box | null;
export function takeBoxes(svg: string, width: number): { width: number; height: number; boxes: Box[]; rest: string | null } | null;
export function paintBoxes(boxes: Box[], rows: Uint8Array, stride: number, offset: number, width: number, height: number, cover: Uint16Array): void;
export function paintOver(rows: Uint8Array, stride: number, offset: number, width: number, height: number, picture: Uint8Array): void;
