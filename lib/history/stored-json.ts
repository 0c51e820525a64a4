// Safe readers over stored report JSON: a missing key or a value of another type reads as absent, never throws.

export type Dict = Record<string, unknown>;

export function dict(value: unknown): Dict | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Dict) : null;
}

export function at(root: unknown, ...path: string[]): unknown {
  let value: unknown = root;
  for (const key of path) {
    const node = dict(value);
    if (!node) return undefined;
    value = node[key];
  }
  return value;
}

export function numAt(root: unknown, ...path: string[]): number | null {
  const value = at(root, ...path);
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** A non-empty string, trimmed. */
export function strAt(root: unknown, ...path: string[]): string | null {
  const value = at(root, ...path);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}
