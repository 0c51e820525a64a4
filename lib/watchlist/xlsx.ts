import { readSheet } from "read-excel-file/universal";
import { ApiError } from "@/lib/errors/api-error";
import { MAX_XLSX_UNPACKED_BYTES } from "./schemas";

// XLSX through read-excel-file (its "universal" build: fflate unzips by the archive's central directory, each entry
// into a buffer of the size the directory declares). The directory is checked first, so a small upload that would
// unpack to gigabytes (a zip bomb) is refused before anything is inflated.

const MAX_ZIP_ENTRIES = 10_000;

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0]; // .xls (and other Office 97–2003 files)

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);
export const isZip = (bytes: Uint8Array) => startsWith(bytes, ZIP_MAGIC);
export const isOldExcel = (bytes: Uint8Array) => startsWith(bytes, OLE_MAGIC);

function parseFailed(message: string): ApiError {
  return ApiError.of("parse_failed", message);
}

// The entries read-excel-file unpacks (its filterZipArchiveEntry).
const readEntry = (name: string) => name.endsWith(".xml") || name.endsWith(".xml.rels");

/** Total declared size of the XML entries, from the end-of-central-directory record and the directory itself. */
export function declaredXmlBytes(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) {
    if (bytes.length - end > 65_558) end = -1;
    else end--;
  }
  if (end < 0) throw parseFailed("Not a readable .xlsx workbook (no zip directory)");
  const entries = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (entries > MAX_ZIP_ENTRIES)
    throw parseFailed(`The workbook holds ${entries} files; at most ${MAX_ZIP_ENTRIES} are read`);
  if (at === 0xffffffff) throw parseFailed("ZIP64 workbooks are not read; save the file again as .xlsx");
  let total = 0;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50)
      throw parseFailed("Not a readable .xlsx workbook (damaged zip directory)");
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (readEntry(name)) total += size;
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return total;
}

function cellText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : "";
  return ""; // dates and booleans are never codes or names
}

/** The first sheet of an .xlsx workbook as rows of text cells (numbers as written, e.g. 600519; decimals dropped). */
export async function xlsxRows(bytes: Uint8Array): Promise<string[][]> {
  const unpacked = declaredXmlBytes(bytes);
  if (unpacked > MAX_XLSX_UNPACKED_BYTES) {
    throw ApiError.of(
      "payload_too_large",
      `The workbook unpacks to ${Math.round(unpacked / 1024 / 1024)} MB; at most ${MAX_XLSX_UNPACKED_BYTES / 1024 / 1024} MB is read`,
    );
  }
  let rows: unknown[][];
  try {
    rows = await readSheet(bytes.slice().buffer);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "XLS_FILE_NOT_SUPPORTED")
      throw parseFailed("Only .xlsx workbooks are read; save the .xls file as .xlsx (or CSV) and try again");
    throw parseFailed(`Not a readable .xlsx workbook: ${String((error as Error)?.message ?? error).slice(0, 200)}`);
  }
  return rows.map((row) => row.map(cellText));
}
