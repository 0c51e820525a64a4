import { buildOpenApiDocument } from "./document";
import { OPERATIONS } from "./operations";

let cached: Record<string, unknown> | null = null;

export function openApiDocument(): Record<string, unknown> {
  cached ??= buildOpenApiDocument(OPERATIONS);
  return cached;
}
