import { route } from "@/lib/http/route";
import { parseImport } from "@/lib/portfolio/csv-import";
import { parseImportOp } from "@/lib/portfolio/operations";

export const dynamic = "force-dynamic";

// POST /api/v1/portfolio/imports/csv/parse – read a broker export (multipart) without storing it
export const POST = route(parseImportOp, ({ body }) => parseImport(body));
