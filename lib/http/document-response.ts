// Responses that are not JSON (the share card's HTML page and PNG): never cached, never sniffed.

const COMMON = { "cache-control": "no-store", "x-content-type-options": "nosniff" };

/** An HTML document under a Content-Security-Policy. */
export function htmlResponse(html: string, csp: string): Response {
  return new Response(html, {
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": csp, ...COMMON },
  });
}

/** A file download; the filename must already be safe ASCII (it goes into the header as is, quoted). */
export function attachmentResponse(body: Uint8Array, contentType: string, filename: string): Response {
  if (!/^[A-Za-z0-9._-]+$/.test(filename)) throw new Error(`unsafe attachment filename: ${filename}`);
  return new Response(body as BodyInit, {
    status: 200,
    headers: {
      "content-type": contentType,
      "content-disposition": `attachment; filename="${filename}"`,
      ...COMMON,
    },
  });
}
