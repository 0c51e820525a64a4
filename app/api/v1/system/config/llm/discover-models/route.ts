import { discoverModels } from "@/lib/analysis/llm/probe";
import { discoverLlmModelsOp } from "@/lib/config/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/system/config/llm/discover-models – the models a channel offers
export const POST = route(discoverLlmModelsOp, ({ body }) => discoverModels(body));
