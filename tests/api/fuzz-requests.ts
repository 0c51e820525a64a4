import fc from "fast-check";

// Request generators for the OpenAPI fuzz test. Each operation's path parameters, query
// parameters and JSON (or multipart) body schema give "valid-ish" values; a mix of hostile ones (wrong
// types, huge, deep or odd strings, lone UTF-16 surrogates, control characters, malformed percent-escapes,
// out-of-range numbers, extra and missing keys, wrong content types, empty bodies) is layered on top.

export type JsonSchema = { [key: string]: unknown };

export interface ParameterObject {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema: JsonSchema;
}

export interface OperationObject {
  operationId: string;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchema> };
}

export interface FuzzOperation {
  method: string;
  path: string;
  op: OperationObject;
}

export interface FuzzRequest {
  method: string;
  /** Request target as sent on the request line: path (percent-encoded, possibly malformed) and query. */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Short description of how the request was built, printed with a counterexample. */
  shape: string;
}

/** Known-good values by parameter or property name (ids of records the test made), used for valid-ish input. */
export type Hints = Record<string, readonly (string | number)[]>;

/** Every operation of the document, in document order. */
export function documentOperations(doc: OpenApiDocument): FuzzOperation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
}

// ---- hostile building blocks

/** Text copied verbatim into a JSON body: numbers JSON.stringify cannot write (1e999 parses as Infinity), deep nesting. */
class RawJson {
  constructor(readonly text: string) {}
}

const LONE_SURROGATES = ["\ud800", "x\udc00y", "\udfff\ud800", "a\ud83d", "\ude00b"];
const ODD_STRINGS = [
  ...LONE_SURROGATES,
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u001b[2J",
  "\r\n\r\nX-Injected: 1",
  "\t\v\f",
  "\u007f\u0085\u2028\u2029",
  "%00",
  "%ff%fe",
  "%",
  "%zz",
  "%2e%2e%2f",
  "../../../etc/passwd",
  "..\\..\\win.ini",
  "' OR '1'='1",
  '"; DROP TABLE analysis_history; --',
  "<script>alert(1)</script>",
  "${jndi:ldap://x}",
  "{{7*7}}",
  "\u202e\u2066rtl",
  "\ufeff",
  "😀",
  "贵州茅台",
  "NaN",
  "Infinity",
  "-0",
  "1e309",
  "0x1F",
  "null",
  "true",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "600519",
  "sh600519",
  "AAPL",
  "hk00700",
  "2026-02-30",
  "9999-12-31T23:59:59Z",
  "-1",
  "0",
  "99999999999999999999999",
];

/** Arbitrary UTF-16 code units: controls, lone surrogates, private use, everything. */
const codeUnitString = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 24 })
  .map((units) => String.fromCharCode(...units));

const hugeString = fc
  .tuple(fc.constantFrom("x", "字", "😀", "\u0000", "%", "\ud800"), fc.integer({ min: 1_000, max: 120_000 }))
  .map(([unit, n]) => unit.repeat(n));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...ODD_STRINGS), weight: 5 },
  { arbitrary: codeUnitString, weight: 3 },
  { arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ maxLength: 300 }), weight: 1 },
  { arbitrary: hugeString, weight: 1 },
);

const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    -1,
    0,
    -0,
    0.5,
    1.5,
    -2.5,
    2 ** 31,
    2 ** 53,
    2 ** 53 + 2,
    1e21,
    1e308,
    -1e308,
    5e-324,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
  ),
  fc
    .constantFrom("1e999", "-1e999", "123456789012345678901234567890", "-0.0", "1E+400", "0.0000000000000000000000001")
    .map((t) => new RawJson(t)),
  fc.double(),
  fc.integer(),
);

function deepNesting(depth: number, open: string, close: string): RawJson {
  return new RawJson(open.repeat(depth) + close.repeat(depth));
}

const deepValue: fc.Arbitrary<RawJson> = fc.oneof(
  fc.integer({ min: 50, max: 5_000 }).map((d) => deepNesting(d, "[", "]")),
  fc.integer({ min: 50, max: 5_000 }).map((d) => new RawJson(`${'{"a":'.repeat(d)}1${"}".repeat(d)}`)),
  // ~200 kB of brackets: far past any recursion depth a parser or walker can take on the stack.
  fc.constantFrom(deepNesting(100_000, "[", "]"), new RawJson(`${'{"a":'.repeat(60_000)}1${"}".repeat(60_000)}`)),
);

const hostileKey = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "",
    " ",
    "\ud800",
    "a.b",
    "$where",
    "toString",
    "hasOwnProperty",
  ),
  codeUnitString,
  fc.string({ maxLength: 12 }),
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 5 },
  { arbitrary: hostileNumber, weight: 3 },
  { arbitrary: fc.constantFrom(null, true, false, [], {}), weight: 2 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
  { arbitrary: fc.array(hostileString, { maxLength: 5 }), weight: 1 },
  { arbitrary: fc.dictionary(hostileKey, hostileString, { maxKeys: 4 }), weight: 1 },
  { arbitrary: deepValue, weight: 1 },
);

// ---- JSON bodies: serialised by hand so RawJson and lone surrogates (as \u escapes) go out as written

export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`)
      .join(",")}}`;
  }
  // JSON.stringify writes lone surrogates as \udXXX escapes (well-formed JSON.stringify); -0 as 0.
  return JSON.stringify(value) ?? "null";
}

// ---- valid-ish values from a JSON schema

interface Ctx {
  doc: OpenApiDocument;
  hints: Hints;
}

function resolve(schema: JsonSchema, ctx: Ctx): JsonSchema {
  let current = schema;
  for (let i = 0; i < 10 && typeof current.$ref === "string"; i++) {
    const name = current.$ref.replace("#/components/schemas/", "");
    current = {
      ...ctx.doc.components.schemas[name],
      ...Object.fromEntries(Object.entries(current).filter(([k]) => k !== "$ref")),
    };
  }
  return current;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

function stringArb(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = Math.min(num(schema.maxLength) ?? 40, 40);
  if (schema.format === "date-time") {
    return fc
      .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2035-12-31T00:00:00Z"), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (typeof schema.pattern === "string") {
    try {
      const pattern = new RegExp(schema.pattern);
      return fc
        .stringMatching(pattern)
        .filter((s) => s.length >= minLength && s.length <= (num(schema.maxLength) ?? Infinity));
    } catch {
      // a pattern fast-check cannot generate from: plain strings below
    }
  }
  const dateLike = fc
    .date({ min: new Date("2015-01-01T00:00:00Z"), max: new Date("2030-12-31T00:00:00Z"), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));
  return fc.oneof(
    fc.string({ minLength, maxLength: Math.max(minLength, maxLength) }),
    dateLike.filter((s) => s.length >= minLength && s.length <= (num(schema.maxLength) ?? Infinity)),
  );
}

function numberArb(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const exclusiveMin = num(schema.exclusiveMinimum);
  let min = num(schema.minimum) ?? (exclusiveMin !== undefined ? exclusiveMin + (integer ? 1 : 1e-6) : -1_000);
  let max =
    num(schema.maximum) ??
    (num(schema.exclusiveMaximum) !== undefined ? num(schema.exclusiveMaximum)! - (integer ? 1 : 1e-6) : 1_000_000);
  // Ids and pages up to 2^53: mostly small values, where records exist.
  if (max - min > 1_000_000) max = Math.min(max, Math.max(min, 0) + 1_000);
  if (min > max) min = max;
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** A value the schema accepts (or nearly: hints and patterns may still be refused by service rules). */
export function validValue(schema: JsonSchema, ctx: Ctx, name?: string, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema, ctx);
  const generic = validGeneric(s, ctx, depth);
  const hints = name ? ctx.hints[name] : undefined;
  if (!hints || hints.length === 0) return generic;
  const hinted = fc
    .constantFrom(...hints)
    .map((h) => (s.type === "string" || (s.anyOf && typeof h === "string") ? String(h) : h));
  return fc.oneof({ arbitrary: hinted, weight: 3 }, { arbitrary: generic, weight: 1 });
}

function validGeneric(s: JsonSchema, ctx: Ctx, depth: number): fc.Arbitrary<unknown> {
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...(s.enum as unknown[]));
  const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (alternatives && alternatives.length > 0)
    return fc.oneof(...alternatives.map((a) => validValue(a, ctx, undefined, depth)));
  if (Array.isArray(s.allOf) && s.allOf.length > 0) return validValue(s.allOf[0] as JsonSchema, ctx, undefined, depth);
  const type = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : [];
  if (type.length > 1) return fc.oneof(...type.map((t) => validGeneric({ ...s, type: t }, ctx, depth)));
  switch (type[0]) {
    case "string":
      return stringArb(s);
    case "integer":
      return numberArb(s, true);
    case "number":
      return numberArb(s, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const items = (s.items as JsonSchema | undefined) ?? {};
      const minLength = num(s.minItems) ?? 0;
      return fc.array(validValue(items, ctx, undefined, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, Math.min(num(s.maxItems) ?? 4, 4)),
      });
    }
    case "object":
      return objectArb(s, ctx, depth);
    default:
      return depth > 2 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArb(s: JsonSchema, ctx: Ctx, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((s.required ?? []) as string[]);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, prop] of Object.entries(properties)) model[key] = validValue(prop, ctx, key, depth + 1);
  const record = fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
  const extra = s.additionalProperties;
  if (extra && typeof extra === "object" && Object.keys(properties).length === 0) {
    return fc.dictionary(
      fc.string({ minLength: 1, maxLength: 12 }),
      validValue(extra as JsonSchema, ctx, undefined, depth + 1),
      { maxKeys: 3 },
    );
  }
  return record as fc.Arbitrary<Record<string, unknown>>;
}

// ---- percent-encoding, including malformed escapes and lone surrogates

/** encodeURIComponent, except that lone surrogates (which it refuses) go out as their 3-byte CESU-8 escapes. */
export function percentEncode(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (char.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`)
        .join("");
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

const RAW_SEGMENTS = [
  "%ff",
  "%",
  "%zz",
  "%ED%A0%80",
  "%C0%AE%C0%AE",
  "%2e%2e",
  "..",
  ".",
  "%2F",
  "%00",
  "a%2Fb",
  "%E4%B8",
  "+",
  "%20",
  "~",
  "!$&'()*+,;=:@",
  "%25",
];

function pathValue(param: ParameterObject, ctx: Ctx): fc.Arbitrary<string> {
  const valid = validValue(param.schema, ctx, param.name).map((v) => percentEncode(String(v)));
  const hostile = fc.oneof(
    { arbitrary: hostileString.filter((s) => s.length < 20_000).map(percentEncode), weight: 4 },
    { arbitrary: fc.constantFrom(...RAW_SEGMENTS), weight: 2 },
    { arbitrary: hostileNumber.map((n) => (n instanceof RawJson ? n.text : String(n))), weight: 1 },
  );
  return fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: hostile, weight: 2 });
}

type QueryPart = string;

function queryParts(params: ParameterObject[], ctx: Ctx): fc.Arbitrary<QueryPart[]> {
  const perParam = params.map((param) => {
    const name = percentEncode(param.name);
    const valid = validValue(param.schema, ctx, param.name).map((v) =>
      Array.isArray(v) ? v.map((x) => `${name}=${percentEncode(String(x))}`) : [`${name}=${percentEncode(String(v))}`],
    );
    const hostile = fc.oneof(
      hostileString.filter((s) => s.length < 20_000).map((s) => [`${name}=${percentEncode(s)}`]),
      fc.constantFrom(...RAW_SEGMENTS).map((s) => [`${name}=${s}`]),
      hostileNumber.map((n) => [`${name}=${percentEncode(n instanceof RawJson ? n.text : String(n))}`]),
      fc
        .tuple(validValue(param.schema, ctx, param.name), hostileString)
        .map(([a, b]) => [`${name}=${percentEncode(String(a))}`, `${name}=${percentEncode(b)}`]),
      fc.constantFrom([name], [`${name}=`], [`${name}[]=1`], [`${name}[a]=1`]),
    );
    const absent = fc.constant<string[]>([]);
    return param.required
      ? fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: hostile, weight: 2 }, { arbitrary: absent, weight: 1 })
      : fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: hostile, weight: 2 }, { arbitrary: absent, weight: 3 });
  });
  const extra = fc.array(
    fc.oneof(
      fc
        .tuple(
          hostileKey,
          hostileString.filter((s) => s.length < 2_000),
        )
        .map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`),
      fc.constantFrom("&&&", "=", "=x", "a", "%=%", "a=%ff", "__proto__[x]=1", "a=1&a=2&a=3"),
    ),
    { maxLength: 2 },
  );
  return fc.tuple(fc.tuple(...perParam), extra).map(([parts, more]) => [...parts.flat(), ...more]);
}

// ---- bodies

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/vnd.api+json",
  "APPLICATION/JSON",
  "application/json; charset=utf-16",
  "text/plain",
  "text/plain; charset=utf-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=xyz",
  "application/xml",
  "*/*",
  "",
];

const RAW_BODIES: readonly (string | Buffer)[] = [
  "",
  "   \n\t",
  "{",
  '{"a":',
  "null",
  "[]",
  "0",
  '"text"',
  "\ufeff{}",
  "{}garbage",
  '{"a":1,"a":2}',
  "{'single':'quotes'}",
  "NaN",
  Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x7d]),
  Buffer.from([0xc3, 0x28, 0xa0, 0xa1]),
  "a=1&b=2",
];

interface BodyPlan {
  value?: unknown;
  raw?: string | Buffer;
  contentType?: string;
  shape: string;
}

function jsonBodyPlan(schema: JsonSchema, ctx: Ctx): fc.Arbitrary<BodyPlan> {
  const s = resolve(schema, ctx);
  const valid = validValue(s, ctx);
  const properties = Object.keys((s.properties ?? {}) as object);
  const required = (s.required ?? []) as string[];
  const asObject = (v: unknown): Record<string, unknown> =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? { ...(v as Record<string, unknown>) } : {};
  const mutations: fc.Arbitrary<BodyPlan>[] = [
    valid.map((value) => ({ value, shape: "valid" })),
    fc.tuple(valid, hostileValue, fc.nat()).map(([v, bad, i]) => {
      const value = asObject(v);
      const key = properties.length > 0 ? properties[i % properties.length]! : "x";
      value[key] = bad;
      return { value, shape: `hostile ${key}` };
    }),
    fc
      .tuple(valid, fc.dictionary(hostileKey, hostileValue, { minKeys: 1, maxKeys: 3 }))
      .map(([v, more]) => ({ value: Object.assign(asObject(v), more), shape: "extra keys" })),
    hostileValue.map((value) => ({ value, shape: "hostile root" })),
  ];
  if (required.length > 0) {
    mutations.push(
      fc.tuple(valid, fc.nat()).map(([v, i]) => {
        const value = asObject(v);
        const key = required[i % required.length]!;
        delete value[key];
        return { value, shape: `missing ${key}` };
      }),
    );
  }
  const body = fc.oneof(
    { arbitrary: mutations[0]!, weight: 4 },
    ...mutations.slice(1).map((arbitrary) => ({ arbitrary, weight: 2 })),
  );
  return fc.oneof(
    { arbitrary: body, weight: 16 },
    {
      arbitrary: fc.tuple(body, fc.constantFrom(...CONTENT_TYPES)).map(([plan, contentType]) => ({
        ...plan,
        contentType,
        shape: `${plan.shape} as ${contentType || "no type"}`,
      })),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(fc.constantFrom(...RAW_BODIES), fc.constantFrom("application/json", "text/plain", ""))
        .map(([raw, contentType]) => ({ raw, contentType, shape: "raw" })),
      weight: 2,
    },
    {
      arbitrary: fc.constant<BodyPlan>({
        raw: `{"x":"${"a".repeat(1024 * 1024 + 16)}"}`,
        contentType: "application/json",
        shape: "over 1 MiB",
      }),
      weight: 1,
    },
  );
}

const CSV_OK = "date,open,high,low,close,volume\n2026-01-05,10,11,9,10.5,1000\n2026-01-06,10.5,11,10,10.8,1200\n";

function multipart(boundary: string, fields: [string, string, string?][]): Buffer {
  const parts = fields.map(([name, value, filename]) => {
    const disposition = `Content-Disposition: form-data; name="${name}"${filename !== undefined ? `; filename="${filename}"` : ""}`;
    const type = filename !== undefined ? "\r\nContent-Type: text/csv" : "";
    return `--${boundary}\r\n${disposition}${type}\r\n\r\n${value}\r\n`;
  });
  return Buffer.from(`${parts.join("")}--${boundary}--\r\n`, "utf8");
}

function multipartBodyPlan(ctx: Ctx): fc.Arbitrary<BodyPlan> {
  const code = fc.oneof(
    fc.constantFrom(...(ctx.hints.code ?? ["600519"]).map(String)),
    hostileString.filter((s) => s.length < 200 && !/[\r\n"]/.test(s)),
  );
  const file = fc.oneof(
    fc.constant(CSV_OK),
    fc.constantFrom(
      "",
      "date\n",
      "a,b,c\n1,2,3\n",
      "date,open,high,low,close,volume\nnot-a-date,x,y,z,w,v\n",
      "\u0000\u0001",
      "date,open,high,low,close,volume\n2026-01-05,-1,1e999,NaN,0,-5\n",
    ),
    hostileString.filter((s) => s.length < 50_000),
  );
  const boundary = "fuzzBoundary7f3a";
  const ct = `multipart/form-data; boundary=${boundary}`;
  return fc.oneof(
    fc.tuple(code, file).map(([c, f]) => ({
      raw: multipart(boundary, [
        ["code", c],
        ["file", f, "bars.csv"],
      ]),
      contentType: ct,
      shape: "multipart",
    })),
    fc.tuple(code, file).map(([c, f]) => ({
      raw: multipart(boundary, [
        ["code", c],
        ["file", f],
      ]),
      contentType: ct,
      shape: "multipart file as text",
    })),
    code.map((c) => ({ raw: multipart(boundary, [["code", c]]), contentType: ct, shape: "multipart missing file" })),
    file.map((f) => ({
      raw: multipart(boundary, [["file", f, "x.csv"]]),
      contentType: ct,
      shape: "multipart missing code",
    })),
    fc.constantFrom<BodyPlan>(
      {
        raw: `--${boundary}\r\nContent-Disposition: form-data; name="code"\r\n\r\n600519`,
        contentType: ct,
        shape: "multipart truncated",
      },
      { raw: "garbage", contentType: "multipart/form-data", shape: "multipart no boundary" },
      { raw: "garbage", contentType: ct, shape: "multipart garbage" },
      { raw: '{"code":"600519"}', contentType: "application/json", shape: "json instead of multipart" },
      { raw: "", contentType: ct, shape: "multipart empty" },
    ),
  );
}

// ---- whole requests

const TRACE_IDS = ["", "x", "0".repeat(32), "g".repeat(32), "a".repeat(500), "../../", "<script>", "%ff"];

export function requestArbitrary(fop: FuzzOperation, doc: OpenApiDocument, hints: Hints): fc.Arbitrary<FuzzRequest> {
  const ctx: Ctx = { doc, hints };
  const params = fop.op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === "path");
  const queryParams = params.filter((p) => p.in === "query");
  const pathArb = fc.tuple(...pathParams.map((p) => pathValue(p, ctx))).map((values) => {
    let path = fop.path;
    pathParams.forEach((p, i) => (path = path.replace(`{${p.name}}`, values[i]!)));
    return path;
  });
  const content = fop.op.requestBody?.content ?? {};
  const jsonSchema = content["application/json"]?.schema;
  const bodyArb: fc.Arbitrary<BodyPlan | undefined> = content["multipart/form-data"]
    ? multipartBodyPlan(ctx)
    : jsonSchema
      ? fc.oneof(
          { arbitrary: jsonBodyPlan(jsonSchema, ctx), weight: 12 },
          { arbitrary: fc.constant(undefined), weight: 1 },
        )
      : fc.oneof(
          { arbitrary: fc.constant(undefined), weight: 6 },
          {
            arbitrary: fc
              .tuple(fc.constantFrom(...RAW_BODIES), fc.constantFrom(...CONTENT_TYPES))
              .map(([raw, contentType]) => ({ raw, contentType, shape: "unexpected body" })),
            weight: 1,
          },
        );
  const headerArb = fc.record(
    {
      "x-trace-id": fc.constantFrom(...TRACE_IDS),
      authorization: fc.constantFrom("Bearer dsa_invalid", "Bearer ", "Basic Zm9vOmJhcg==", "dsa_x"),
      origin: fc.constantFrom("http://evil.example", "null"),
      "accept-language": fc.constantFrom("en", "zh-CN", "xx;q=abc", "*"),
      accept: fc.constantFrom("text/html", "application/json", "*/*", "image/png"),
    },
    { requiredKeys: [] },
  );
  return fc
    .record({
      path: pathArb,
      query: queryParts(queryParams, ctx),
      body: bodyArb,
      headers: fc.oneof({ arbitrary: fc.constant({}), weight: 5 }, { arbitrary: headerArb, weight: 1 }),
    })
    .map(({ path, query, body, headers }) => {
      const out: Record<string, string> = { ...(headers as Record<string, string>) };
      let payload: Buffer | undefined;
      if (body) {
        payload =
          body.raw !== undefined
            ? typeof body.raw === "string"
              ? Buffer.from(body.raw, "utf8")
              : body.raw
            : Buffer.from(toJsonText(body.value), "utf8");
        const type = body.contentType ?? "application/json";
        if (type !== "") out["content-type"] = type;
      }
      const target = query.length > 0 ? `${path}?${query.join("&")}` : path;
      const request: FuzzRequest = {
        method: fop.method,
        target,
        headers: out,
        body: payload,
        shape: body ? body.shape : "no body",
      };
      // fast-check prints a counterexample with this, not the whole (up to 1 MiB) body.
      return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
    });
}

/** One line for a failure report: request line, how it was built, headers, the body's start. */
export function describeRequest(req: FuzzRequest): string {
  const body = req.body
    ? `${req.body.byteLength} B ${JSON.stringify(req.body.subarray(0, 200).toString("utf8"))}`
    : "none";
  return `${req.method} ${req.target.slice(0, 300)}${req.target.length > 300 ? "…" : ""} [${req.shape}] headers=${JSON.stringify(req.headers)} body=${body}`;
}
