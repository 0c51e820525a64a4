import { route } from "@/lib/http/route";
import { commitImport } from "@/lib/portfolio/csv-import";
import { commitImportOp } from "@/lib/portfolio/operations";

export const dynamic = "force-dynamic";

// POST /api/v1/portfolio/imports/csv/commit – import a broker export into an account (dry_run counts only)
export const POST = route(commitImportOp, ({ body }) => commitImport(body));
