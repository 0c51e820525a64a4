import { defineOperation } from "@/lib/operation/operation";
import { ZDataCapabilities, ZDataOverview, ZDataSourcesStatus } from "./schemas";

export const getDataSourcesStatusOp = defineOperation({
  method: "GET",
  path: "/api/v1/system/data-sources/status",
  operationId: "getDataSourcesStatus",
  summary: "Each market-data and news search provider: switched on or not, and how its calls went per market",
  description:
    "status active when MARKET_DATA_SOURCES lists the provider (news: when its keys are set). circuit: per market, " +
    "how this server process's calls went since it started (ok; failing after 3 failures in a row; DSA has no " +
    "circuit breaker, so a failing provider is still asked). Error texts are masked.",
  tags: ["Data"],
  responses: { 200: { description: "The providers", schema: ZDataSourcesStatus } },
});

export const getDataOverviewOp = defineOperation({
  method: "GET",
  path: "/api/v1/data/overview",
  operationId: "getDataOverview",
  summary: "Per market and dataset: the route of sources, its state, the current source and the stored bars",
  description:
    "Datasets: daily bars and quotes of cn, hk and us, and FX rates. Status ok (the first source answers), degraded " +
    "(a later one does), unavailable (none does), unconfigured (no listed source serves it), unknown (not asked " +
    "since the start), stale (not asked since the start and the stored bars are older than 7 days). warning_codes: " +
    "no_network_source, sample_data_in_chain, unknown_source:<name>, dataset_unavailable, no_fx_source.",
  tags: ["Data"],
  responses: { 200: { description: "The overview", schema: ZDataOverview } },
});

export const getDataCapabilitiesOp = defineOperation({
  method: "GET",
  path: "/api/v1/data/capabilities",
  operationId: "getDataCapabilities",
  summary: "Each provider's capability table: markets, indices, datasets, realtime or not, credentials, settings",
  description: "Read off the providers themselves (which markets they serve), whether or not they are configured.",
  tags: ["Data"],
  responses: { 200: { description: "The providers' capabilities", schema: ZDataCapabilities } },
});

export const DATA_SOURCE_OPERATIONS = [getDataSourcesStatusOp, getDataOverviewOp, getDataCapabilitiesOp] as const;
