import { testChannel } from "@/lib/analysis/llm/probe";
import { testLlmChannelOp } from "@/lib/config/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/system/config/llm/test-channel – one chat call and the capability checks asked for
export const POST = route(testLlmChannelOp, ({ body }) => testChannel(body));
