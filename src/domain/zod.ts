/**
 * The zod every domain schema is built with: zod, extended with `.openapi()` metadata, so that the
 * HTTP layer can name and document a domain schema whatever module happens to load first (a schema
 * built before the extension has no `.openapi`). The extension is zod-to-openapi's, which
 * @hono/zod-openapi applies to the same zod; applying it twice is a no-op.
 */
import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

extendZodWithOpenApi(z);

export { z };
