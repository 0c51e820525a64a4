import { defineOperation } from "@/lib/operation/operation";
import { ZErrorResponse } from "@/lib/errors/schemas";
import { ZApiTokenList, ZApiTokenParams, ZCreateApiTokenRequest, ZCreatedApiToken } from "./api-token-schemas";
import { ZAuthSettingsRequest, ZAuthStatus, ZChangePasswordRequest, ZLoginRequest, ZLoginResponse } from "./schemas";

const TAGS = ["Auth"];

export const getAuthStatusOp = defineOperation({
  method: "GET",
  path: "/api/v1/auth/status",
  operationId: "getAuthStatus",
  summary: "Whether admin auth is on, whether this client is logged in, and the password setup state",
  tags: TAGS,
  public: true,
  responses: { 200: { description: "Auth status", schema: ZAuthStatus } },
});

export const loginOp = defineOperation({
  method: "POST",
  path: "/api/v1/auth/login",
  operationId: "login",
  summary: "Log in (the first login with a confirmation sets the admin password); sets the dsa_session cookie",
  tags: TAGS,
  public: true,
  body: ZLoginRequest,
  responses: {
    200: { description: "Logged in; Set-Cookie carries the session", schema: ZLoginResponse },
    400: {
      description: "auth_disabled, password_required, password_mismatch or invalid_password (too short)",
      schema: ZErrorResponse,
    },
    401: { description: "invalid_password: wrong password", schema: ZErrorResponse },
    403: { description: "Cross-origin request refused", schema: ZErrorResponse },
    429: {
      description: "rate_limited: too many failures from this client (Retry-After header)",
      schema: ZErrorResponse,
    },
  },
});

export const logoutOp = defineOperation({
  method: "POST",
  path: "/api/v1/auth/logout",
  operationId: "logout",
  summary: "End this session (revoked server-side) and clear the cookie",
  tags: TAGS,
  public: true,
  responses: {
    204: { description: "Logged out" },
    403: { description: "Cross-origin request refused", schema: ZErrorResponse },
  },
});

export const changePasswordOp = defineOperation({
  method: "POST",
  path: "/api/v1/auth/change-password",
  operationId: "changePassword",
  adminSessionOnly: true,
  summary: "Change the admin password; every other session ends",
  tags: TAGS,
  body: ZChangePasswordRequest,
  responses: {
    204: { description: "Changed" },
    400: {
      description: "not_changeable, current_required, invalid_password or password_mismatch",
      schema: ZErrorResponse,
    },
    403: { description: "Cross-origin request refused", schema: ZErrorResponse },
  },
});

export const updateAuthSettingsOp = defineOperation({
  method: "POST",
  path: "/api/v1/auth/settings",
  operationId: "updateAuthSettings",
  adminSessionOnly: true,
  summary: "Turn admin auth on (setting the first password, or proving the stored one) or off",
  description: "Needs the admin session while auth is on. Turning auth on also logs this client in (Set-Cookie).",
  tags: TAGS,
  body: ZAuthSettingsRequest,
  responses: {
    200: { description: "The new auth status", schema: ZAuthStatus },
    400: {
      description: "password_required, password_mismatch, invalid_password (too short) or current_required",
      schema: ZErrorResponse,
    },
    401: { description: "invalid_password (wrong), or no session while auth is on", schema: ZErrorResponse },
    403: { description: "Cross-origin request refused", schema: ZErrorResponse },
    409: { description: "A first password was set by another request meanwhile", schema: ZErrorResponse },
    429: { description: "rate_limited (Retry-After header)", schema: ZErrorResponse },
  },
});

const SESSION_ONLY = {
  description: "A bearer token was sent: token management needs the admin session (or a cross-origin request)",
  schema: ZErrorResponse,
};

export const createApiTokenOp = defineOperation({
  method: "POST",
  path: "/api/v1/auth/tokens",
  operationId: "createApiToken",
  summary: "Create an API token; the secret is in this response only",
  description:
    "Send it as `Authorization: Bearer dsa_…`. `read` reaches GET operations, `write` every operation but token management, config export/import and auth settings.",
  tags: TAGS,
  adminSessionOnly: true,
  body: ZCreateApiTokenRequest,
  responses: { 201: { description: "Created; `token` is shown once", schema: ZCreatedApiToken }, 403: SESSION_ONLY },
});

export const listApiTokensOp = defineOperation({
  method: "GET",
  path: "/api/v1/auth/tokens",
  operationId: "listApiTokens",
  summary: "API tokens that are not revoked, newest first (never the secret)",
  tags: TAGS,
  adminSessionOnly: true,
  responses: { 200: { description: "The tokens", schema: ZApiTokenList }, 403: SESSION_ONLY },
});

export const revokeApiTokenOp = defineOperation({
  method: "DELETE",
  path: "/api/v1/auth/tokens/{id}",
  operationId: "revokeApiToken",
  summary: "Revoke an API token; it is refused from the next request on",
  tags: TAGS,
  adminSessionOnly: true,
  params: ZApiTokenParams,
  responses: {
    204: { description: "Revoked" },
    403: SESSION_ONLY,
    404: { description: "No such token (or already revoked)", schema: ZErrorResponse },
  },
});

export const API_TOKEN_OPERATIONS = [createApiTokenOp, listApiTokensOp, revokeApiTokenOp];
