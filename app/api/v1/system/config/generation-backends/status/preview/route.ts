import { generationBackendsStatus } from "@/lib/analysis/llm/backends";
import { previewGenerationBackendsOp } from "@/lib/analysis/llm/backend-operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/system/config/generation-backends/status/preview – the backends of an unsaved draft
export const POST = route(previewGenerationBackendsOp, ({ body }) => generationBackendsStatus(body));
