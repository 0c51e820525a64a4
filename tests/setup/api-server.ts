import type { TestProject } from "vitest/node";
import { startServiceProcess, type ServerProcess } from "../../scripts/server-process";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

export type TestServer = ServerProcess;

/** API test files needing other settings (auth on, ...) start their own real server with these overrides. */
export const startTestServer = startServiceProcess;

/** The shared server for API test files: the real built app, auth off, defaults, a throw-away database. */
export default async function setup(project: TestProject) {
  const server = await startServiceProcess();
  project.provide("baseUrl", server.baseUrl);
  project.provide("dataDir", server.dataDir);
  return () => server.stop();
}
