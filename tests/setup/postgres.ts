import type { TestProject } from "vitest/node";
import { createTemplateDatabase, dropDatabases, testDatabasePrefix } from "../kits/db/postgres-test-databases";

declare module "vitest" {
  export interface ProvidedContext {
    pgTemplate: string;
    pgPrefix: string;
  }
}

/** The PostgreSQL pass: a migrated template for this run, and every database the run made dropped after it. */
export default async function setup(project: TestProject) {
  const prefix = testDatabasePrefix();
  project.provide("pgPrefix", prefix);
  project.provide("pgTemplate", await createTemplateDatabase(prefix));
  return () => dropDatabases(prefix);
}
