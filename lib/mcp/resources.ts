import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { listHistory } from "@/lib/history/list";
import { getHistoryMarkdown } from "@/lib/history/record";
import { ZHistoryListQuery } from "@/lib/history/schemas";
import { getShareImagePng } from "@/lib/history/share/share-image";
import { getWatchlist } from "@/lib/watchlist/store";

// Stored reports as resources (their Markdown, and the share card as a PNG), and the watchlist.

/** Reports listed as resources: the newest ones; older ones are read by id all the same. */
const LISTED_REPORTS = 50;

export const reportUri = (id: number | string) => `dsa://reports/${id}`;

export function registerResources(server: McpServer): void {
  server.registerResource(
    "report",
    new ResourceTemplate("dsa://reports/{record_id}", {
      list: async () => {
        const page = await listHistory(ZHistoryListQuery.parse({ limit: LISTED_REPORTS }));
        return {
          resources: page.items.map((item) => ({
            uri: reportUri(item.id),
            name: `${item.stock_code} ${item.stock_name ?? ""} ${item.created_at}`.replace(/\s+/g, " ").trim(),
            description: item.analysis_summary ?? undefined,
            mimeType: "text/markdown",
          })),
        };
      },
    }),
    { title: "Stored report", description: "A stored report as Markdown", mimeType: "text/markdown" },
    async (uri, { record_id }) => {
      const { content } = await getHistoryMarkdown(String(record_id));
      return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: content }] };
    },
  );
  server.registerResource(
    "report-share-image",
    new ResourceTemplate("dsa://reports/{record_id}/share.png", { list: undefined }),
    { title: "Report share image", description: "The report's share card as a PNG", mimeType: "image/png" },
    async (uri, { record_id }) => {
      const { png } = await getShareImagePng(String(record_id));
      return { contents: [{ uri: uri.href, mimeType: "image/png", blob: Buffer.from(png).toString("base64") }] };
    },
  );
  server.registerResource(
    "watchlist",
    "dsa://watchlist",
    { title: "Watchlist", description: "The watchlist in order", mimeType: "application/json" },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(getWatchlist()) }],
    }),
  );
}
