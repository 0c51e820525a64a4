import { getHistoryShareImageHtmlOp } from "@/lib/history/operations";
import { getShareImageHtml } from "@/lib/history/share/share-image";
import { SHARE_HTML_CSP } from "@/lib/history/share/html";
import { htmlResponse } from "@/lib/http/document-response";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/history/{record_id}/share-image-html – the share card as an HTML page
export const GET = route(getHistoryShareImageHtmlOp, async ({ params, query }) =>
  htmlResponse(await getShareImageHtml(params.record_id, query), SHARE_HTML_CSP),
);
