// Usage: node --import tsx run.ts BASE_URL API_KEY API_SECRET  -> prints what the merchant's code saw, as JSON
import { merchantFlows } from "./merchant-client.js";

const [baseUrl, apiKey, apiSecret] = process.argv.slice(2) as [string, string, string];
const result = await merchantFlows(baseUrl, { "X-Api-Key": apiKey, "X-Api-Secret": apiSecret });
process.stdout.write(JSON.stringify(result));
