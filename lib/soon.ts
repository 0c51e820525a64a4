// The checks every API request makes (the admin session, an API token) are synchronous reads on SQLite.
// Inside Next every promise runs the async-context hooks, so a chain of async functions around one such read cost
// more than the read; these helpers pass a value on at once when there is one, and wait only for a real promise.

/** A value now, or a promise of it. */
export type Soon<T> = T | PromiseLike<T>;

/** Whether `value` is to be waited for (a promise, or any thenable such as a Prisma query). */
export function isThenable<T>(value: Soon<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}

/** `next` applied to the value: at once when it is here, once it arrives when it is a promise. */
export function andThen<T, U>(value: Soon<T>, next: (value: T) => Soon<U>): Soon<U> {
  return isThenable(value) ? Promise.resolve(value).then(next) : next(value);
}
