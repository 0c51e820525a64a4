// The one source of "now" for the service, so tests can pin time instead of sleeping or racing the wall clock.
let fixed: (() => Date) | null = null;

export function now(): Date {
  return fixed ? fixed() : new Date();
}

export function setClock(source: (() => Date) | null): void {
  fixed = source;
}
