import { getSettings } from "@/lib/settings/settings";
import { logger } from "@/lib/log/logger";
import { getShareImagePng } from "./share-image";

// A stored report's share PNG is drawn in the background right away (SHARE_IMAGE_PRERENDER), in the language's
// default colours, and kept in the PNG cache under the card's content: the first request for it is then a read.
// A record whose image cannot be drawn (too long, renderer off or failing) is left to the request path, which
// answers the error. At most a few wait at once: a batch of reports must not fill the renderer's queue ahead of
// someone's share request; the rest are drawn on request.

const MAX_PENDING = 4;
let pending = 0;

type Draw = (recordId: string) => Promise<unknown>;

export function prerenderShareImage(recordId: number, draw: Draw = getShareImagePng): void {
  const settings = getSettings();
  if (!settings.SHARE_IMAGE_PRERENDER || !settings.SHARE_IMAGE_PNG_ENABLED || pending >= MAX_PENDING) return;
  pending += 1;
  const started = performance.now();
  draw(String(recordId))
    .then(() =>
      logger.info(
        { record_id: recordId, ms: Math.round(performance.now() - started) },
        "share image drawn in the background",
      ),
    )
    .catch((error: unknown) =>
      logger.debug({ err: error, record_id: recordId }, "share image not drawn in the background"),
    )
    .finally(() => (pending -= 1));
}
