import { z } from "zod";
import { DB_ID_MAX } from "@/lib/db/id-range";

// docs/api.md §12.1.7-9: broker CSV import, parse (a dry read) then commit (dedup by trade_uid and dedup_hash).

export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

export const ZBrokerList = z
  .object({
    brokers: z.array(z.object({ broker: z.string(), aliases: z.array(z.string()), display_name: z.string() })),
  })
  .meta({ id: "PortfolioImportBrokerList" });

const ZFormBool = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0", "True", "False"])])
  .transform((v) => v === true || v === "true" || v === "True" || v === "1");

export const ZImportParseForm = z
  .object({
    broker: z.string().trim().min(1).max(32).describe("generic, huatai, citic, cmb (or an alias)"),
    file: z.file().describe("The broker's export: CSV or tab-separated text, UTF-8 or GBK"),
  })
  .meta({ id: "PortfolioImportParseForm" });
export type TImportParseForm = z.infer<typeof ZImportParseForm>;

export const ZImportCommitForm = z
  .object({
    account_id: z.coerce.number().int().positive().max(DB_ID_MAX),
    broker: z.string().trim().min(1).max(32),
    dry_run: ZFormBool.default(false).describe(
      "true: count what would be inserted, duplicate or fail, and store nothing",
    ),
    file: z.file(),
  })
  .meta({ id: "PortfolioImportCommitForm" });
export type TImportCommitForm = z.infer<typeof ZImportCommitForm>;

export const ZImportRecord = z
  .object({
    trade_date: z.string(),
    symbol: z.string(),
    side: z.enum(["buy", "sell"]),
    quantity: z.number(),
    price: z.number(),
    fee: z.number(),
    tax: z.number(),
    trade_uid: z.string().nullable(),
    dedup_hash: z
      .string()
      .describe(
        "SHA-256 of the row's values and which repeat of identical values it is in the file: a re-import finds it",
      ),
    currency: z.string().nullable(),
    note: z.string().nullable(),
    line_number: z.number().int(),
  })
  .meta({ id: "PortfolioImportRecord" });
export type TImportRecord = z.infer<typeof ZImportRecord>;

export const ZImportParse = z
  .object({
    broker: z.string(),
    record_count: z.number().int(),
    skipped_count: z.number().int().describe("Rows that are not a buy or a sell (transfers, cancelled orders…)"),
    error_count: z.number().int(),
    records: z.array(ZImportRecord),
    errors: z.array(z.string()).describe("One per buy or sell row that does not read, naming its line"),
    skipped: z.array(z.object({ line: z.number().int(), reason: z.string() })),
  })
  .meta({ id: "PortfolioImportParseResponse" });
export type TImportParse = z.infer<typeof ZImportParse>;

export const ZImportCommit = z
  .object({
    account_id: z.number().int(),
    record_count: z.number().int(),
    inserted_count: z.number().int(),
    duplicate_count: z
      .number()
      .int()
      .describe("Already stored (same trade_uid or dedup_hash in the account) or repeated in the file"),
    failed_count: z.number().int().describe("Rows that did not read, and sells above the holding at their date"),
    dry_run: z.boolean(),
    errors: z.array(z.string()),
  })
  .meta({ id: "PortfolioImportCommitResponse" });
export type TImportCommit = z.infer<typeof ZImportCommit>;
