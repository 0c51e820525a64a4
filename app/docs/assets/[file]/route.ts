import { DOCS_ASSETS, docsAsset } from "@/lib/openapi/docs-page";

export const dynamic = "force-dynamic";

// GET /docs/assets/{file} – the API reference viewer's files, from the swagger-ui-dist package
export async function GET(_req: Request, ctx: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await ctx.params;
  const bytes = docsAsset(file);
  if (!bytes) return new Response("Not found", { status: 404 });
  return new Response(new Uint8Array(await bytes), {
    headers: {
      "content-type": DOCS_ASSETS[file] ?? "application/octet-stream",
      "cache-control": "public, max-age=86400",
    },
  });
}
