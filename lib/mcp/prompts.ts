import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { getHistoryMarkdown } from "@/lib/history/record";
import { reportUri } from "./resources";

// Prompts a trader would start from; each names the tools that hold the figures, so the assistant quotes DSA's data
// rather than its own recollection.

const HONESTY =
  "Quote every figure as the tools give it. Where the evidence gives a sample size and an interval, say them, and say " +
  "plainly when it shows no measurable edge over the base rate.";

export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    "review_watchlist",
    {
      title: "Review my watchlist",
      description: "Go through the watchlist: each stock's latest report, its signal, and what changed since.",
    },
    () => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text:
              "Review my watchlist with DSA. Call get_watchlist, then for each stock get_latest_report and " +
              "get_decision_signals; call analyze_stock only for a stock with no report from the last session. Give one " +
              `line per stock: action, score, plan levels and what would change the call. ${HONESTY}`,
          },
        },
      ],
    }),
  );
  server.registerPrompt(
    "explain_report",
    {
      title: "Explain this report's verdict",
      description: "Explain a stored report's verdict and the evidence behind it.",
      argsSchema: { record_id: z.string().describe("The report's id") },
    },
    async ({ record_id }) => {
      const { content } = await getHistoryMarkdown(record_id);
      return {
        messages: [
          {
            role: "user",
            content: {
              type: "resource",
              resource: { uri: reportUri(record_id), mimeType: "text/markdown", text: content },
            },
          },
          {
            role: "user",
            content: {
              type: "text",
              text:
                "Explain this DSA report's verdict to me: which readings led to the action, what the plan's levels are " +
                `based on, what the engine's own record on such calls shows, and what would invalidate it. ${HONESTY}`,
            },
          },
        ],
      };
    },
  );
  server.registerPrompt(
    "analyse_stock",
    {
      title: "Analyse a stock",
      description: "Analyse one stock now and explain the result.",
      argsSchema: { code: z.string().describe("A code or name: 600519, 00700, AAPL, 贵州茅台") },
    },
    ({ code }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "text",
            text:
              `Analyse ${code} with DSA: call analyze_stock, then get_report on its record, and summarise the verdict, ` +
              `the plan and the evidence. ${HONESTY}`,
          },
        },
      ],
    }),
  );
}
