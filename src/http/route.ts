/**
 * The scaffolding every operation shares, written once: a route factory per resource presets its tags,
 * security and middleware; one helper builds the success envelope's schema and another its body; and
 * handlers read their merchant one way.
 */
import { createRoute, z, type RouteConfig } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { DomainContext } from "../domain/context.js";
import type { TenantState } from "../domain/state.js";
import { contextOf, type Tenant } from "../engine/tenant.js";
import type { AppEnv } from "./env.js";
import { security } from "./openapi.js";

type Preset = { tags: string[]; security?: RouteConfig["security"]; middleware?: readonly MiddlewareHandler<AppEnv>[] };

/**
 * The route factory of one resource: each operation it makes carries the preset tags, security (the
 * merchant's keys unless the preset says otherwise) and middleware; an operation's own fields win.
 */
export function routes(preset: Preset) {
  return <R extends Parameters<typeof createRoute>[0]>(operation: R) =>
    createRoute({ security, ...preset, ...operation } as R & { tags: string[] });
}

/** The schema of a success answer: `{ success: true, ...fields }`. */
export const Success = <S extends z.ZodRawShape>(fields: S) => z.object({ success: z.literal(true), ...fields });

/**
 * A success answer's body: `{ success: true, data }`, with `message` before `data` when given. Built
 * as literals of one shape, not by a spread: a spread shared by every handler goes megamorphic and
 * cost an authenticated GET a tenth of its time (bench/FAST-PATH.md).
 */
export function ok<T>(data: T): { success: true; data: T };
export function ok<T>(data: T, message: string): { success: true; message: string; data: T };
export function ok<T>(data: T, message?: string) {
  return message === undefined ? { success: true as const, data } : { success: true as const, message, data };
}

/** A success answer whose fields stand at the top level (VTU purchases, payment links): `{ success: true, ...fields }`. */
export const okFields = <T extends object>(fields: T) => ({ success: true as const, ...fields });

/** The merchant a request is for, and the context its domain call runs in (`now` fixed for the call). */
export function tenantOf(c: Context<AppEnv>): { tenant: Tenant; ctx: DomainContext; state: TenantState } {
  const tenant = c.get("tenant"); // c.get, not c.var: c.var copies every variable (bench/FAST-PATH.md)
  return { tenant, ctx: contextOf(tenant), state: tenant.state };
}
