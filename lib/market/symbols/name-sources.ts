import { BUNDLED_NAMES } from "./bundled-names";
import type { NameSource } from "./name-index";

let preferred: NameSource | null = null;
let generation = 0;

/**
 * Install the source consulted before the bundled list (the database-backed full list once the stocks
 * refresh has run), or null to go back to the bundled list alone. Process-wide because resolution is
 * called from request handlers that should not have to thread it through; tests can also pass sources
 * explicitly through the resolver options instead.
 */
export function setPreferredNameSource(source: NameSource | null): void {
  preferred = source;
  generation += 1;
}

/** Changes whenever the sources change: answers that show names (history lists kept in memory) are stamped with it. */
export function nameSourcesGeneration(): number {
  return generation;
}

/** Sources in the order they are asked: the preferred one first, the bundled list last. */
export function activeNameSources(): readonly NameSource[] {
  return preferred ? [preferred, BUNDLED_NAMES] : [BUNDLED_NAMES];
}
