import { appIconPng } from "@/lib/brand/icon";

export const dynamic = "force-dynamic";

// GET /icons/{file} – the installed app's icons (192 and 512 px, maskable, Apple touch), named in the manifest
export async function GET(_req: Request, ctx: { params: Promise<{ file: string }> }): Promise<Response> {
  const png = appIconPng((await ctx.params).file);
  if (!png) return new Response("not found", { status: 404, headers: { "content-type": "text/plain" } });
  return new Response(png as BodyInit, {
    headers: { "content-type": "image/png", "cache-control": "public, max-age=604800" },
  });
}
