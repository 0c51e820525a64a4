import { rootInfo } from "@/lib/health/health";
import { getRootOp } from "@/lib/health/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET / (API clients, rewritten here by next.config) – service name and version
export const GET = route(getRootOp, () => rootInfo());
