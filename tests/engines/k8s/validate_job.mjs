// Validates batch/v1 Job manifests (JSON) offline against Kubernetes' own
// API schema, from two packages generated from the upstream OpenAPI spec:
// - kubernetes-models: the JSON schema (types, formats, enums, required
//   fields) through its compiled ajv validators;
// - @kubernetes/client-node: the models' field lists, for the check the
//   schema does not make (it allows unknown fields; the API server's strict
//   field validation, kubectl --validate=strict, refuses them).
// usage: node validate_job.mjs FILE...   exit 0: all valid, 1: one is not
import { readFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Job } from "kubernetes-models/batch/v1/Job";

const models = join(dirname(fileURLToPath(import.meta.url)), "node_modules",
                    "@kubernetes", "client-node", "dist", "gen", "models");

// Every key of obj must be a field of the model `type`; recurses into the
// fields whose type is a model, an array or a map of one.
async function unknownFields(obj, type, path, out) {
  const arr = /^Array<(.+)>$/.exec(type);
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (arr || map) {
    if (obj === null || typeof obj !== "object") return;
    for (const [k, v] of Object.entries(obj))
      await unknownFields(v, (arr || map)[1], `${path}/${k}`, out);
    return;
  }
  const file = join(models, `${type}.js`);
  if (!existsSync(file) || obj === null || typeof obj !== "object" ||
      Array.isArray(obj))
    return;   // a primitive type (or a wrong type, which ajv reports)
  const fields = (await import(file))[type].attributeTypeMap;
  for (const [k, v] of Object.entries(obj)) {
    const f = fields.find((a) => a.baseName === k);
    if (!f) out.push(`${path}/${k}: unknown field of ${type}`);
    else await unknownFields(v, f.type, `${path}/${k}`, out);
  }
}

let bad = 0;
for (const name of process.argv.slice(2)) {
  const errors = [];
  let doc;
  try {
    doc = JSON.parse(readFileSync(name, "utf8"));
  } catch (e) {
    errors.push(`not JSON: ${e.message}`);
  }
  if (doc !== undefined) {
    if (doc.apiVersion !== "batch/v1" || doc.kind !== "Job")
      errors.push(`not a batch/v1 Job: ${doc.apiVersion} ${doc.kind}`);
    try {
      new Job(doc).validate();
    } catch (e) {
      errors.push(e.message);
    }
    await unknownFields(doc, "V1Job", "", errors);
  }
  for (const e of errors) console.log(`${name}: ${e}`);
  if (errors.length) bad++;
  else console.log(`${name}: valid batch/v1 Job`);
}
process.exit(bad ? 1 : 0);
