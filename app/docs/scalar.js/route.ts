import { scalarBundle } from "@/lib/openapi/docs-page";

export const dynamic = "force-dynamic";

// GET /docs/scalar.js – the API reference viewer bundle, from the npm package
export async function GET(): Promise<Response> {
  const body = new Uint8Array(await scalarBundle());
  return new Response(body, {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" },
  });
}
