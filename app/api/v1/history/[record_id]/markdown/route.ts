import { getHistoryMarkdownOp } from "@/lib/history/operations";
import { getHistoryMarkdown } from "@/lib/history/record";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/history/{record_id}/markdown – the report as Markdown
export const GET = route(getHistoryMarkdownOp, ({ params }) => getHistoryMarkdown(params.record_id));
