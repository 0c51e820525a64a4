import { generationBackendsStatus } from "@/lib/analysis/llm/backends";
import { getGenerationBackendsOp } from "@/lib/analysis/llm/backend-operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/system/config/generation-backends/status – the backends from the saved LLM channels
export const GET = route(getGenerationBackendsOp, () => generationBackendsStatus());
