import { z } from "zod";
import { ZErrorResponse, ZValidationErrorResponse } from "@/lib/errors/schemas";
import { API_VERSION } from "@/lib/version";
import type { Operation } from "@/lib/operation/operation";

type JsonSchema = Record<string, unknown>;
type Io = "input" | "output";

const INPUT_SUFFIX = "__Input";

/** Builds the OpenAPI 3.1 document from the operations' own zod schemas. */
export function buildOpenApiDocument(operations: readonly Operation[]): JsonSchema {
  const components = new Map<string, JsonSchema>();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const item = (paths[op.path] ??= {});
    item[op.method.toLowerCase()] = operationObject(op, components);
  }
  const document = {
    openapi: "3.1.0",
    info: {
      title: "DSA stock analysis service",
      version: API_VERSION,
      description:
        "AI-driven analysis of China A-share, Hong Kong, US stocks and registered indices, with stored reports, " +
        "decision signals, usage, alerts and portfolio risk. Errors use a flat envelope {error, message, detail?}.",
    },
    paths,
    components: {
      schemas: Object.fromEntries(components),
      securitySchemes: {
        AdminSessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: "dsa_session",
          description: "Admin session; required on /api/v1/* (except login, auth status) when ADMIN_AUTH_ENABLED=true.",
        },
        BearerToken: {
          type: "http",
          scheme: "bearer",
          description:
            "API token (dsa_…) from POST /api/v1/auth/tokens, in place of the session when ADMIN_AUTH_ENABLED=true. " +
            "read: GET operations; write: all but token management, config export/import and auth settings.",
        },
      },
    },
  };
  return mergeInputVariants(document);
}

function operationObject(op: Operation, components: Map<string, JsonSchema>): JsonSchema {
  const parameters = [...parameterList("path", op.params, components), ...parameterList("query", op.query, components)];
  const responses: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(op.responses)) {
    const contentType = spec.contentType ?? (spec.schema ? "application/json" : undefined);
    const schema = spec.schema ? toSchema(spec.schema, "output", components) : { type: "string" };
    responses[status] = contentType
      ? { description: spec.description, content: { [contentType]: { schema } } }
      : { description: spec.description };
  }
  const hasInput = Boolean(op.params || op.query || op.body);
  if (hasInput && !responses["422"]) {
    responses["422"] = errorContent("Request validation failed", ZValidationErrorResponse, components);
  }
  if (!op.public && !responses["401"]) {
    responses["401"] = errorContent(
      op.tokenOnly
        ? "No valid API token was sent"
        : "Admin auth is enabled and neither a session nor a valid API token was sent",
      ZErrorResponse,
      components,
    );
  }
  if (!responses["500"]) responses["500"] = errorContent("Internal server error", ZErrorResponse, components);

  const operation: JsonSchema = {
    operationId: op.operationId,
    summary: op.summary,
    tags: op.tags,
    responses,
  };
  if (op.description) operation.description = op.description;
  if (parameters.length > 0) operation.parameters = parameters;
  if (op.body) {
    const schema = toSchema(op.body, "input", components);
    const types =
      op.bodyFormat === "json-or-multipart"
        ? ["application/json", "multipart/form-data"]
        : [op.bodyFormat === "multipart" ? "multipart/form-data" : "application/json"];
    operation.requestBody = {
      required: op.bodyRequired !== false,
      content: Object.fromEntries(types.map((type) => [type, { schema }])),
    };
  }
  // Either scheme alone is enough, hence two alternatives; session-only operations list just the cookie.
  if (op.tokenOnly) operation.security = [{ BearerToken: [] }];
  else if (!op.public)
    operation.security = op.adminSessionOnly
      ? [{ AdminSessionCookie: [] }]
      : [{ AdminSessionCookie: [] }, { BearerToken: [] }];
  return operation;
}

function errorContent(description: string, schema: z.ZodType, components: Map<string, JsonSchema>) {
  return { description, content: { "application/json": { schema: toSchema(schema, "output", components) } } };
}

function parameterList(where: "path" | "query", schema: z.ZodType | undefined, components: Map<string, JsonSchema>) {
  if (!schema) return [];
  if (!(schema instanceof z.ZodObject)) throw new Error(`${where} schema must be a zod object`);
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const fieldSchema = toSchema(field, "input", components);
    const parameter: JsonSchema = {
      name,
      in: where,
      required: where === "path" || !field.safeParse(undefined).success,
      schema: fieldSchema,
    };
    const description = field.description ?? (fieldSchema.description as string | undefined);
    if (description) parameter.description = description;
    return parameter;
  });
}

/** JSON Schema of one zod schema; every schema with a meta id is hoisted into components. */
function toSchema(schema: z.ZodType, io: Io, components: Map<string, JsonSchema>): JsonSchema {
  const generated = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  const { $schema: _ignored, $defs, ...root } = generated;
  void _ignored;
  const rename = (id: string) => (io === "input" ? `${id}${INPUT_SUFFIX}` : id);
  for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    components.set(rename(id), rewriteRefs(def, rename));
  }
  return rewriteRefs(root, rename);
}

function rewriteRefs(node: JsonSchema, rename: (id: string) => string): JsonSchema {
  const text = JSON.stringify(node).replace(
    /"#\/\$defs\/([^"]+)"/g,
    (_m, id: string) => `"#/components/schemas/${rename(id)}"`,
  );
  return JSON.parse(text) as JsonSchema;
}

/** Request-side variants that equal the response-side schema collapse into one component. */
function mergeInputVariants<T extends { components: { schemas: Record<string, JsonSchema> } }>(document: T): T {
  const schemas = document.components.schemas;
  const names: Record<string, string> = {};
  for (const name of Object.keys(schemas)) {
    if (!name.endsWith(INPUT_SUFFIX)) continue;
    const base = name.slice(0, -INPUT_SUFFIX.length);
    const sameAsOutput = base in schemas && JSON.stringify(schemas[base]) === JSON.stringify(schemas[name]);
    names[name] = base in schemas && !sameAsOutput ? `${base}Input` : base;
  }
  let text = JSON.stringify(document);
  for (const [from, to] of Object.entries(names))
    text = text.split(`"#/components/schemas/${from}"`).join(`"#/components/schemas/${to}"`);
  const result = JSON.parse(text) as T;
  for (const [from, to] of Object.entries(names)) {
    const def = result.components.schemas[from];
    delete result.components.schemas[from];
    if (def && !(to in result.components.schemas)) result.components.schemas[to] = def;
  }
  return result;
}
