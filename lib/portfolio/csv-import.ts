import { now } from "@/lib/clock";
import { inTransaction, type Tx } from "@/lib/db/client";
import { ApiError } from "@/lib/errors/api-error";
import { dedupKey } from "@/lib/market/symbols";
import { brokerList, parseBrokerExport } from "./broker-csv";
import { currencyOfMarket } from "./currency";
import type { TImportCommit, TImportCommitForm, TImportParse, TImportParseForm, TImportRecord } from "./import-schemas";
import { getAccountOrThrow, recomputePositions, resolveTradeSymbol } from "./store";
import { portfolioWrite } from "./write-guard";

// Broker CSV import (docs/api.md §12.1.7-9). Commit: rows already in the account (same trade_uid or dedup_hash) or
// repeated in the file are duplicates; the rest go in, by date, in one transaction with the positions; a sell above
// the holding at its date is taken out again and counted as failed, so the positions never go negative. A dry run does
// the same and rolls back.

export const listBrokers = brokerList;

async function bytesOf(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.arrayBuffer());
}

// POST /api/v1/portfolio/imports/csv/parse
export async function parseImport(form: TImportParseForm): Promise<TImportParse> {
  const parsed = parseBrokerExport(form.broker, await bytesOf(form.file));
  return {
    broker: parsed.broker,
    record_count: parsed.records.length,
    skipped_count: parsed.skipped.length,
    error_count: parsed.errors.length,
    records: parsed.records,
    errors: parsed.errors,
    skipped: parsed.skipped,
  };
}

class DryRun extends Error {
  constructor(readonly result: TImportCommit) {
    super("dry run");
  }
}

const CHUNK = 500;
async function existing(
  tx: Tx,
  accountId: number,
  records: readonly TImportRecord[],
): Promise<{ uids: Set<string>; hashes: Set<string> }> {
  const uids = new Set<string>();
  const hashes = new Set<string>();
  for (let i = 0; i < records.length; i += CHUNK) {
    const part = records.slice(i, i + CHUNK);
    const rows = await tx.portfolioTrade.findMany({
      where: {
        accountId,
        OR: [
          { tradeUid: { in: part.flatMap((r) => (r.trade_uid ? [r.trade_uid] : [])) } },
          { dedupHash: { in: part.map((r) => r.dedup_hash) } },
        ],
      },
      select: { tradeUid: true, dedupHash: true },
    });
    for (const row of rows) {
      if (row.tradeUid) uids.add(row.tradeUid);
      if (row.dedupHash) hashes.add(row.dedupHash);
    }
  }
  return { uids, hashes };
}

/** Inserts the new records and recomputes positions, taking out the sells that would oversell; the failures' messages. */
async function insertChecked(
  tx: Tx,
  accountId: number,
  broker: string,
  records: readonly TImportRecord[],
): Promise<string[]> {
  const at = now();
  await tx.portfolioTrade.createMany({
    data: records.map((r) => {
      const symbol = resolveTradeSymbol(r.symbol);
      return {
        accountId,
        side: r.side,
        stockCode: symbol.displayCode,
        targetKey: dedupKey(symbol),
        market: symbol.market,
        currency: r.currency ?? currencyOfMarket(symbol.market),
        quantity: r.quantity,
        price: r.price,
        fee: r.fee,
        tax: r.tax,
        tradeDate: r.trade_date,
        note: (r.note ?? `csv_import:${broker}`).slice(0, 255),
        source: "import",
        tradeUid: r.trade_uid,
        dedupHash: r.dedup_hash,
        createdAt: at,
      };
    }),
  });
  const lineOf = new Map(records.map((r) => [r.dedup_hash, r.line_number]));
  const inserted = new Map<number, { line: number; targetKey: string; tradeDate: string; side: string }>();
  for (let i = 0; i < records.length; i += CHUNK) {
    const rows = await tx.portfolioTrade.findMany({
      where: { accountId, dedupHash: { in: records.slice(i, i + CHUNK).map((r) => r.dedup_hash) } },
    });
    for (const row of rows)
      inserted.set(row.id, {
        line: lineOf.get(row.dedupHash!)!,
        targetKey: row.targetKey,
        tradeDate: row.tradeDate,
        side: row.side,
      });
  }
  const failures: string[] = [];
  for (let guard = 0; guard <= records.length; guard++) {
    try {
      await recomputePositions(tx, accountId);
      return failures;
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== "portfolio_oversell") throw error;
      const offending = Number(error.extra.trade_id);
      let drop = inserted.has(offending) ? offending : null;
      if (drop === null) {
        // A stored sell is left above the holding by an imported sell before it: take out the latest such import.
        const stored = await tx.portfolioTrade.findUniqueOrThrow({ where: { id: offending } });
        const candidates = [...inserted].filter(
          ([, t]) => t.side === "sell" && t.targetKey === stored.targetKey && t.tradeDate <= stored.tradeDate,
        );
        drop = candidates.sort((a, b) => (a[1].tradeDate < b[1].tradeDate ? 1 : -1))[0]?.[0] ?? null;
        if (drop === null) throw error;
      }
      failures.push(`line ${inserted.get(drop)!.line}: portfolio_oversell: ${error.message}`);
      await tx.portfolioTrade.delete({ where: { id: drop } });
      inserted.delete(drop);
    }
  }
  return failures;
}

// POST /api/v1/portfolio/imports/csv/commit
export async function commitImport(form: TImportCommitForm): Promise<TImportCommit> {
  const parsed = parseBrokerExport(form.broker, await bytesOf(form.file));
  await getAccountOrThrow(form.account_id);
  const records = [...parsed.records].sort((a, b) =>
    a.trade_date < b.trade_date ? -1 : a.trade_date > b.trade_date ? 1 : a.line_number - b.line_number,
  );
  const work = async (tx: Tx): Promise<TImportCommit> => {
    const stored = await existing(tx, form.account_id, records);
    const uids = new Set(stored.uids);
    const hashes = new Set(stored.hashes);
    const fresh: TImportRecord[] = [];
    let duplicates = 0;
    for (const record of records) {
      if ((record.trade_uid && uids.has(record.trade_uid)) || hashes.has(record.dedup_hash)) {
        duplicates++;
        continue;
      }
      if (record.trade_uid) uids.add(record.trade_uid);
      hashes.add(record.dedup_hash);
      fresh.push(record);
    }
    const failures = fresh.length > 0 ? await insertChecked(tx, form.account_id, parsed.broker, fresh) : [];
    const result: TImportCommit = {
      account_id: form.account_id,
      record_count: records.length,
      inserted_count: fresh.length - failures.length,
      duplicate_count: duplicates,
      failed_count: parsed.errors.length + failures.length,
      dry_run: form.dry_run,
      errors: [...parsed.errors, ...failures],
    };
    if (form.dry_run) throw new DryRun(result);
    return result;
  };
  try {
    // A 10,000-row file with its positions takes more than the default 5 s transaction.
    return await portfolioWrite(() => inTransaction(work, { timeoutMs: 120_000 }));
  } catch (error) {
    if (error instanceof DryRun) return error.result;
    throw error;
  }
}
