import type { TestProject } from "vitest/node";
import { startServiceProcess, type ServerProcess } from "../../scripts/server-process";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

export type TestServer = ServerProcess;

/**
 * Test servers skip the share renderer's warm-up after start (SHARE_IMAGE_WARMUP): it keeps both cores of this
 * machine busy for seconds after every start, under the test that started the server; and they draw no share image
 * when a report is stored (SHARE_IMAGE_PRERENDER), which would put a card's CPU behind each of the suite's many
 * analyses. Both are tested on the one server that keeps the defaults (history-share.test.ts).
 */
export const TEST_SERVER_ENV: Readonly<Record<string, string>> = {
  SHARE_IMAGE_WARMUP: "false",
  SHARE_IMAGE_PRERENDER: "false",
};

/** API test files needing other settings (auth on, ...) start their own real server with these overrides. */
export function startTestServer(
  extraEnv: Record<string, string> = {},
  options?: Parameters<typeof startServiceProcess>[1],
): Promise<ServerProcess> {
  return startServiceProcess({ ...TEST_SERVER_ENV, ...extraEnv }, options);
}

/** The shared server for API test files: the real built app, auth off, defaults, a throw-away database. */
export default async function setup(project: TestProject) {
  const server = await startTestServer();
  project.provide("baseUrl", server.baseUrl);
  project.provide("dataDir", server.dataDir);
  return () => server.stop();
}
