import { Ajv, type ValidateFunction } from 'ajv';

const ajv = new Ajv({ allErrors: false, strict: false });
/** Compiled schemas, by their text: an evaluation checks thousands of outputs against one. */
const compiledSchemas = new Map<string, ValidateFunction>();

/** The schema compiled with Ajv (once per text); throws Ajv's error for a schema that is not valid. */
export function compiledSchema(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiledSchemas.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    if (compiledSchemas.size >= 200) compiledSchemas.delete(compiledSchemas.keys().next().value!);
    compiledSchemas.set(key, validate);
  }
  return validate;
}
