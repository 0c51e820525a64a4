import type { TestProject } from "vitest/node";
import { startTestServer } from "./api-server";
import { createTemplateDatabase, dropDatabases, testDatabasePrefix } from "../kits/db/postgres-test-databases";

/**
 * The API suite's PostgreSQL pass: a migrated template the test servers' databases are copied from, the shared
 * server on one of them; the run's databases dropped after.
 */
export default async function setup(project: TestProject) {
  await createTemplateDatabase(testDatabasePrefix(), "server");
  const server = await startTestServer({}, { database: "postgres" });
  project.provide("baseUrl", server.baseUrl);
  project.provide("dataDir", server.dataDir);
  return async () => {
    await server.stop();
    await dropDatabases(testDatabasePrefix());
  };
}
