import { defineOperation, type Operation } from "@/lib/operation/operation";
import { ZHealthResponse, ZRootResponse } from "./schemas";

const healthOp = (path: string, operationId: string): Operation =>
  defineOperation({
    method: "GET",
    path,
    operationId,
    summary: "Liveness check",
    description: "Always answers JSON while the process serves requests.",
    tags: ["Health"],
    public: true,
    responses: { 200: { description: "The service is up", schema: ZHealthResponse } },
  });

// GET / answers JSON to API clients; browsers (Accept: text/html) get the web UI instead.
export const getRootOp = defineOperation({
  method: "GET",
  path: "/",
  operationId: "getRoot",
  summary: "Service name and version (JSON for API clients; the web UI for browsers)",
  tags: ["Health"],
  public: true,
  responses: { 200: { description: "Service information", schema: ZRootResponse } },
});

export const getHealthOp = healthOp("/health", "getHealth");
export const getApiHealthOp = healthOp("/api/health", "getApiHealth");
export const getApiV1HealthOp = healthOp("/api/v1/health", "getApiV1Health");
