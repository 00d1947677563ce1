import { writeFileSync } from "node:fs";
import { generateTypes } from "merchant-sandbox-ts5-tools";
import { harness } from "./test/helpers.js";
const res = await harness().app.request("http://127.0.0.1:4010/openapi.json");
writeFileSync("test/client-fixture/generated/api.d.ts", await generateTypes(await res.json()));
