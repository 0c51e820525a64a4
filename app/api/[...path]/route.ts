import { unknownApiPath } from "@/lib/http/not-found";

export const dynamic = "force-dynamic";

// ANY /api/* not matched by a more specific route – JSON 404 not_found
export const GET = unknownApiPath;
export const POST = unknownApiPath;
export const PUT = unknownApiPath;
export const PATCH = unknownApiPath;
export const DELETE = unknownApiPath;
