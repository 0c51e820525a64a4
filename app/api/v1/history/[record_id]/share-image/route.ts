import { getHistoryShareImageOp } from "@/lib/history/operations";
import { getShareImagePng } from "@/lib/history/share/share-image";
import { attachmentResponse } from "@/lib/http/document-response";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";
// satori and resvg are Node modules (resvg is native code).
export const runtime = "nodejs";

// GET /api/v1/history/{record_id}/share-image – the share card as a PNG download
export const GET = route(getHistoryShareImageOp, async ({ params, query }) => {
  const { png, filename } = await getShareImagePng(params.record_id, query);
  return attachmentResponse(png, "image/png", filename);
});
