import { Ajv, type Options } from 'ajv';
import addFormatsPlugin from 'ajv-formats';

// ajv-formats is CommonJS; under ESM its default export arrives wrapped.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats: AddFormats =
  (addFormatsPlugin as unknown as { default?: AddFormats }).default ??
  (addFormatsPlugin as unknown as AddFormats);

/**
 * The one Ajv configuration used for definitions, so the server's in-process validators and
 * the standalone ones the browser imports behave the same.
 */
export const AJV_OPTIONS: Options = {
  allErrors: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
  messages: false,
};

export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ ...AJV_OPTIONS, ...options });
  addFormats(ajv);
  return ajv;
}
