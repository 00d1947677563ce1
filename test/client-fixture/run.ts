// Usage: node --import tsx run.ts BASE_URL API_KEY API_SECRET  -> prints the payout result as JSON
import { payoutEndToEnd } from "./payout-client.js";

const [baseUrl, apiKey, apiSecret] = process.argv.slice(2) as [string, string, string];
const result = await payoutEndToEnd(baseUrl, { "X-Api-Key": apiKey, "X-Api-Secret": apiSecret });
process.stdout.write(JSON.stringify(result));
