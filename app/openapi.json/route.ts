import { route } from "@/lib/http/route";
import { openApiDocument } from "@/lib/openapi/openapi-document";
import { getOpenApiOp } from "@/lib/openapi/operations";

export const dynamic = "force-dynamic";

// GET /openapi.json – the OpenAPI 3.1 document built from the handlers' zod schemas
export const GET = route(getOpenApiOp, () => openApiDocument());
