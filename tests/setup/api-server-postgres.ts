import type { TestProject } from "vitest/node";
import { startTestServer } from "./api-server";
import { dropDatabases, testDatabasePrefix } from "../../lib/db/testing/postgres-test-databases";

/** The API suite's PostgreSQL pass: the shared server on a PostgreSQL database; the run's databases dropped after. */
export default async function setup(project: TestProject) {
  const server = await startTestServer({}, { database: "postgres" });
  project.provide("baseUrl", server.baseUrl);
  project.provide("dataDir", server.dataDir);
  return async () => {
    await server.stop();
    await dropDatabases(testDatabasePrefix());
  };
}
