import { now } from "@/lib/clock";
import { SERVICE_VERSION } from "@/lib/version";
import type { THealthResponse, TRootResponse } from "./schemas";

export function healthStatus(): THealthResponse {
  return { status: "ok", timestamp: now().toISOString() };
}

export function rootInfo(): TRootResponse {
  return { message: "DSA stock analysis service is running. API documentation: /docs", version: SERVICE_VERSION };
}
