import type { TestProject } from "vitest/node";
import { createTemplateDatabase, dropDatabases } from "../../lib/db/testing/postgres-test-databases";

declare module "vitest" {
  export interface ProvidedContext {
    pgTemplate: string;
    pgPrefix: string;
  }
}

/** The PostgreSQL pass: a migrated template for this run, and every database the run made dropped after it. */
export default async function setup(project: TestProject) {
  const prefix = `dsa_test_${process.pid}_${Date.now().toString(36)}`;
  project.provide("pgPrefix", prefix);
  project.provide("pgTemplate", await createTemplateDatabase(prefix));
  return () => dropDatabases(prefix);
}
