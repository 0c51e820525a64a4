import { brandIconPng } from "@/lib/brand/icon";

export const dynamic = "force-static";

// GET /favicon.ico – the service's icon (a PNG: every current browser reads one under this name)
export function GET(): Response {
  return new Response(brandIconPng() as BodyInit, {
    headers: { "content-type": "image/png", "cache-control": "public, max-age=86400" },
  });
}
