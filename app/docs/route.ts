import { DOCS_CONTENT_SECURITY_POLICY, docsPageHtml } from "@/lib/openapi/docs-page";

export const dynamic = "force-static";

// GET /docs – the API reference (Scalar) for /openapi.json, served without any external host
export function GET(): Response {
  return new Response(docsPageHtml(), {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "x-content-type-options": "nosniff",
      "content-security-policy": DOCS_CONTENT_SECURITY_POLICY,
    },
  });
}
