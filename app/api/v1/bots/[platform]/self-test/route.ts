import { botSelfTestOp } from "@/lib/bots/operations";
import { botSelfTest } from "@/lib/bots/status";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/bots/{platform}/self-test – settings, allowlist and a call to the platform
export const POST = route(botSelfTestOp, ({ params }) => botSelfTest(params.platform));
