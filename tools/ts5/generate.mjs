// Generates TypeScript types from an OpenAPI document with openapi-typescript (TypeScript 5 API).
import openapiTS, { astToString } from "openapi-typescript";

/** @param {object} document an OpenAPI 3.x document  @returns {Promise<string>} the .d.ts source */
export async function generateTypes(document) {
  return astToString(await openapiTS(document));
}
