import { smokeTestBackend } from "@/lib/analysis/llm/backends";
import { smokeTestGenerationBackendOp } from "@/lib/analysis/llm/backend-operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// POST /api/v1/system/config/generation-backends/smoke-test – one call through a backend of the draft
export const POST = route(smokeTestGenerationBackendOp, ({ body }) => smokeTestBackend(body));
