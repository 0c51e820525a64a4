import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from "@prisma/driver-adapter-utils";
import { Mutex } from "async-mutex";

/**
 * Prisma's better-sqlite3 adapter holds ONE connection and queues only interactive transactions behind each
 * other. A statement sent through the client while another request's transaction is open runs on that same
 * connection, i.e. INSIDE the open transaction: it reads rows not yet committed, and its own write (already
 * answered to its caller) is erased if that transaction rolls back. The gate makes such statements wait until
 * the open transaction ends: one mutex, taken by every statement outside a transaction for its run and by
 * every transaction from its start to its commit or rollback. Statements of the transaction itself go
 * through the transaction object and are not gated.
 */
export function gatedSqlite(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => gateAdapter(await factory.connect()),
  };
}

function gateAdapter(inner: SqlDriverAdapter): SqlDriverAdapter {
  const gate = new Mutex();
  const adapter: SqlDriverAdapter = {
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw: (query: SqlQuery) => gate.runExclusive(() => inner.queryRaw(query)),
    executeRaw: (query: SqlQuery) => gate.runExclusive(() => inner.executeRaw(query)),
    executeScript: (script: string) => gate.runExclusive(() => inner.executeScript(script)),
    startTransaction: async (isolationLevel?: IsolationLevel) => {
      const release = await gate.acquire();
      try {
        return gateTransaction(await inner.startTransaction(isolationLevel), release);
      } catch (error) {
        release();
        throw error;
      }
    },
    dispose: () => inner.dispose(),
  };
  if (inner.getConnectionInfo) adapter.getConnectionInfo = () => inner.getConnectionInfo!();
  return adapter;
}

function gateTransaction(inner: Transaction, release: () => void): Transaction {
  let released = false;
  const releaseOnce = () => {
    if (!released) {
      released = true;
      release();
    }
  };
  // Prisma ends a transaction with a COMMIT (or ROLLBACK) statement and only then calls commit() (rollback()); when
  // that statement fails it calls neither, which would hold the gate, and with it every statement, for good. So a
  // failed end is rolled back here and both locks are released before the error goes on.
  const ending = async <R>(query: SqlQuery, run: () => Promise<R>): Promise<R> => {
    if (!END_STATEMENT.test(query.sql)) return run();
    try {
      return await run();
    } catch (error) {
      await inner.executeRaw({ sql: "ROLLBACK", args: [], argTypes: [] }).catch(() => undefined);
      await inner.rollback().catch(() => undefined);
      releaseOnce();
      throw error;
    }
  };
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    options: inner.options,
    queryRaw: (query: SqlQuery) => ending(query, () => inner.queryRaw(query)),
    executeRaw: (query: SqlQuery) => ending(query, () => inner.executeRaw(query)),
    commit: () => inner.commit().finally(releaseOnce),
    rollback: () => inner.rollback().finally(releaseOnce),
  };
}

const END_STATEMENT = /^\s*(COMMIT|ROLLBACK)\s*;?\s*$/i;
