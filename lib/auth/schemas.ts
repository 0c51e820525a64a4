import { z } from "zod";

export const ZAuthStatus = z
  .object({
    authEnabled: z.boolean(),
    loggedIn: z.boolean(),
    passwordSet: z.boolean().describe("false while admin auth is off"),
    passwordChangeable: z.boolean().describe("false while admin auth is off"),
    setupState: z.enum(["enabled", "password_retained", "no_password"]),
  })
  .meta({ id: "AuthStatusResponse" });

// Fields stay loosely typed so a missing password is the contract's 400 password_required, not a 422.
export const ZLoginRequest = z
  .object({
    password: z.string().max(1024).optional(),
    passwordConfirm: z.string().max(1024).optional(),
    password_confirm: z.string().max(1024).optional(),
  })
  .meta({ id: "LoginRequest" });

export const ZLoginResponse = z.object({ ok: z.literal(true) }).meta({ id: "LoginResponse" });

export const ZChangePasswordRequest = z
  .object({
    currentPassword: z.string().max(1024).optional(),
    newPassword: z.string().max(1024).optional(),
    newPasswordConfirm: z.string().max(1024).optional(),
  })
  .meta({ id: "ChangePasswordRequest" });

export const ZAuthSettingsRequest = z
  .object({
    authEnabled: z.boolean(),
    password: z.string().max(1024).optional(),
    passwordConfirm: z.string().max(1024).optional(),
    currentPassword: z.string().max(1024).optional(),
  })
  .meta({ id: "AuthSettingsRequest" });

export type TAuthSettingsRequest = z.infer<typeof ZAuthSettingsRequest>;
export type TAuthStatus = z.infer<typeof ZAuthStatus>;
export type TLoginRequest = z.infer<typeof ZLoginRequest>;
export type TChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>;
