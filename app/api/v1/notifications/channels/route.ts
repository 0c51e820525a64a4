import { route } from "@/lib/http/route";
import { listNotifyChannelsOp } from "@/lib/notify/operations";
import { listChannels } from "@/lib/notify/service";

export const dynamic = "force-dynamic";

// GET /api/v1/notifications/channels – the channels that are on
export const GET = route(listNotifyChannelsOp, () => listChannels());
