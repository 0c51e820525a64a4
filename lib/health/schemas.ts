import { z } from "zod";

export const ZHealthResponse = z
  .object({
    status: z.string().describe('Always "ok" while the process serves requests'),
    timestamp: z.iso.datetime({ offset: true }).optional(),
  })
  .meta({ id: "HealthResponse" });

export const ZRootResponse = z
  .object({
    message: z.string(),
    version: z.string().optional(),
  })
  .meta({ id: "RootResponse" });

export type THealthResponse = z.infer<typeof ZHealthResponse>;
export type TRootResponse = z.infer<typeof ZRootResponse>;
