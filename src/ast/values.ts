// Checks one field value against its AST definition and converts it to the
// canonical storage form (see src/backend/storage/types.ts). The GraphQL write path,
// seeding, the use cases and the Board's form all go through here, so a value is
// either valid everywhere or nowhere. Each type's rule is its row in fieldTypes.ts.
// Browser-safe: no Node imports.
import type { FieldDef } from './schema.ts';
import { ownValue, refColumnName, refId } from './lookup.ts';
import { fieldType } from './fieldTypes.ts';
import { Rejection, reject, type Scalar, type ValueProblem } from './valueRules.ts';

export type { Scalar, ValueProblem } from './valueRules.ts';
export { describeValue, daysInMonth, isEmailAddress, MAX_TEXT_KEY, numberToDecimalString, UUID } from './valueRules.ts';

export class FieldValueError extends Error {
  readonly entity: string;
  readonly field: string;
  readonly reason: string;
  readonly problem: ValueProblem;
  /** Position of the record in a list of records (seeding), if any. */
  readonly recordIndex: number | undefined;

  constructor(entity: string, field: string, reason: string, recordIndex?: number, problem: ValueProblem = { code: 'invalid' }) {
    const where = recordIndex === undefined ? entity : `${entity}[${recordIndex}]`;
    super(`${where}.${field}: ${reason}`);
    this.name = 'FieldValueError';
    this.entity = entity;
    this.field = field;
    this.reason = reason;
    this.problem = problem;
    this.recordIndex = recordIndex;
  }

  /** The same problem, located in record `index` of a list. */
  atRecord(index: number): FieldValueError {
    return new FieldValueError(this.entity, this.field, this.reason, index, this.problem);
  }
}


export function coerceFieldValue(entity: string, field: string, def: FieldDef, value: unknown): Scalar {
  try {
    return coerce(def, value);
  } catch (error) {
    if (error instanceof Rejection) throw new FieldValueError(entity, field, error.message, undefined, error.problem);
    throw error;
  }
}

/** The canonical storage form of a value; a ref may be given as its related object. Throws FieldValueError when it does not fit the field. */
export function canonicalValue(entity: string, field: string, def: FieldDef, value: unknown): unknown {
  return coerceFieldValue(entity, field, def, def.type === 'ref' ? refId(value) : value);
}

function coerce(def: FieldDef, value: unknown): Scalar {
  // An empty form field means "no value" for every type whose empty string is
  // not itself a meaningful value.
  const absent = value === undefined || value === null || (value === '' && def.type !== 'string' && def.type !== 'text');
  if (absent) {
    if (def.required && def.type !== 'id') reject('is required', { code: 'required' });
    return null;
  }
  if (value === '' && def.required) reject('is required', { code: 'required' });

  return fieldType(def.type).coerce(def, value);
}

// ---------------------------------------------------------------- records

/** The required fields an insert does not give (refs may be given as `company` or `company_id`). */
export function checkRequired(entity: string, fields: Record<string, FieldDef>, record: Record<string, unknown>): FieldValueError[] {
  const errors: FieldValueError[] = [];
  for (const [name, def] of Object.entries(fields)) {
    if (!def.required || def.type === 'id') continue;
    const value = def.type === 'ref' ? (ownValue(record, name) ?? ownValue(record, refColumnName(name))) : ownValue(record, name);
    if (value === undefined || value === null) errors.push(new FieldValueError(entity, name, 'is required'));
  }
  return errors;
}
