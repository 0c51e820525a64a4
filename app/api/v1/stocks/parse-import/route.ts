import { route } from "@/lib/http/route";
import { parseImportOp } from "@/lib/watchlist/operations";
import { parseImport } from "@/lib/watchlist/parse-import";

export const dynamic = "force-dynamic";

// POST /api/v1/stocks/parse-import – codes from a CSV/XLSX/TXT file or pasted text, nothing saved
export const POST = route(parseImportOp, ({ body }) => parseImport(body));
