import { db, type Db } from "./client";

/**
 * State kept per database client (a test file, or a process that switched databases, must not see another
 * database's rows under the same keys), made on first use. Module-level per caller, so each copy of a module that
 * Next bundles separately keeps its own.
 */
export function perClient<T extends object>(create: () => T): (client?: Db) => T {
  const all = new WeakMap<Db, T>();
  return (client = db()) => {
    let state = all.get(client);
    if (!state) {
      state = create();
      all.set(client, state);
    }
    return state;
  };
}
