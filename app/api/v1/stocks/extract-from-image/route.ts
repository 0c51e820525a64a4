import { route } from "@/lib/http/route";
import { extractFromImage } from "@/lib/watchlist/extract-image";
import { extractFromImageOp } from "@/lib/watchlist/operations";

export const dynamic = "force-dynamic";

// POST /api/v1/stocks/extract-from-image – codes a vision model reads off a screenshot, resolved, nothing saved
export const POST = route(extractFromImageOp, ({ body, query, req }) =>
  extractFromImage(body, query, { signal: req.signal }),
);
