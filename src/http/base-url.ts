/** The base of the links the sandbox hands out: --public-url when set (behind a proxy), else the origin the request came to. */
export const baseUrl = (publicUrl: string | undefined, requestUrl: string): string => publicUrl ?? new URL(requestUrl).origin;
