import { authStatus } from "@/lib/auth/auth-service";
import { getAuthStatusOp } from "@/lib/auth/operations";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/auth/status – auth switch, login state and password setup state
export const GET = route(getAuthStatusOp, ({ req }) => authStatus(req));
