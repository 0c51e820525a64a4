// Every key and channel this service uses in Redis starts with one namespace, so a Redis shared with other
// applications (or several test files at once) never sees two users step on each other's keys.
const DEFAULT_NAMESPACE = "dsa:";

const holder = globalThis as typeof globalThis & { __dsaRedisNamespace?: string };

export function redisKey(...parts: string[]): string {
  return `${holder.__dsaRedisNamespace ?? DEFAULT_NAMESPACE}${parts.join(":")}`;
}

/** Tests: a namespace of their own (null: back to the default). Objects built afterwards use it. */
export function setRedisNamespaceForTests(namespace: string | null): void {
  if (namespace === null) delete holder.__dsaRedisNamespace;
  else holder.__dsaRedisNamespace = namespace;
}
