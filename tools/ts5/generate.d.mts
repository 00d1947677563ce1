/** Generates TypeScript types (a .d.ts source) from an OpenAPI 3.x document with openapi-typescript. */
export function generateTypes(document: object): Promise<string>;
