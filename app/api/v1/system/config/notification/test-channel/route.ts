import { route } from "@/lib/http/route";
import { testNotificationDraft } from "@/lib/notify/draft-test";
import { testNotificationDraftOp } from "@/lib/notify/operations";

export const dynamic = "force-dynamic";

// POST /api/v1/system/config/notification/test-channel – a test message through one channel's unsaved settings
export const POST = route(testNotificationDraftOp, ({ body }) => testNotificationDraft(body));
