// The layers (docs/architecture.md): routes and pages (app/, components/) → the HTTP wrapper and the OpenAPI
// document (lib/http, lib/openapi) → domains (every other lib/ folder) → ground modules (errors, settings, db, log,
// net, redis, i18n, time, operation declarations, and lib/'s loose files). An import may only point down or sideways
// within a domain layer, never in a circle. `npm run lint` runs this.
const GROUND = "^lib/(errors|settings|db|log|net|redis|i18n|time|operation)/|^lib/[^/]+\\.ts$";
const WRAPPER = "^lib/(http|openapi)/";
const TOP = "^(app|components)/";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Modules that import each other, directly or around a loop.",
      from: {},
      to: { circular: true },
    },
    {
      name: "ground-imports-only-ground",
      severity: "error",
      comment: "A ground module imports only other ground modules.",
      from: { path: GROUND },
      to: { path: "^(lib|app|components)/", pathNot: GROUND },
    },
    {
      name: "domain-below-wrapper",
      severity: "error",
      comment: "A domain never imports the HTTP wrapper, the OpenAPI document, routes, pages or components.",
      from: { path: "^lib/", pathNot: [GROUND, WRAPPER] },
      to: { path: [WRAPPER, TOP] },
    },
    {
      name: "wrapper-below-routes",
      severity: "error",
      comment: "The HTTP wrapper never imports routes, pages or components.",
      from: { path: WRAPPER },
      to: { path: TOP },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)generated/|\\.test\\.tsx?$|/test-workers/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
  },
};
