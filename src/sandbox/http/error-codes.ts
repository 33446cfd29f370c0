// Which `error` code a malformed request gets, per operation: the contract gives each operation its
// own enum, so a schema violation is reported with that operation's closest code.
import type { ErrorObject } from 'ajv';
import type { OperationErrorCode, OperationId } from '../../client/errors.js';
import { type HelperRefusalCode, quoted } from '../domain/errors.js';

export interface ValidationCodes<Code extends string = string> {
  /** A required field is absent. */
  missing: Code;
  /** Anything else: malformed JSON, a wrong type, a bad format. */
  invalid: Code;
  /** Codes for violations under a given top-level field. */
  fields?: Record<string, Code>;
  /** Codes for violations of a given schema rule (matched in ajv's schemaPath). */
  rules?: Array<[RegExp, Code]>;
  /** A path id that breaks its schema: this 400 code instead of 404 NotFound. */
  path?: Code;
}

/** Each operation's table may name only codes of its own enum: a misspelt code does not compile. */
type ContractValidationCodes = { [Op in OperationId]?: ValidationCodes<OperationErrorCode<Op>> };

/**
 * Operations whose input can be invalid only in a way the contract gives no 400 for (a retrieve's id is any string).
 */
const UNDOCUMENTED_400: ValidationCodes = { missing: 'InvalidRequestParameter', invalid: 'InvalidRequestParameter' };

const LIST_400 = { missing: 'InvalidRequestParameter', invalid: 'InvalidRequestParameter' } as const;

export const VALIDATION_CODES = {
  listPaymentSessions: LIST_400,
  listPaymentTokens: LIST_400,
  listCatalogItems: LIST_400,
  listDisputes: LIST_400,
  createPaymentSession: {
    missing: 'MissingRequiredParameter',
    invalid: 'InvalidRequestParameter',
    fields: { total_amount: 'TotalAmountInvalid', order_items: 'OrderItemsInvalid' },
    rules: [
      [/dependentSchemas\/payment_token/, 'TokenizeNotSupported'],
      // A free trial without tokenize lacks a parameter it requires; tokenize=false is an invalid value.
      [/dependentSchemas\/display_next_bill_info\/required/, 'MissingRequiredParameter'],
      [/dependentSchemas\/display_next_bill_info\/properties\/tokenize/, 'InvalidRequestParameter'],
      [/dependentSchemas\/display_next_bill_info\/properties\/total_amount|\/then\//, 'TotalAmountInvalid'],
    ],
  },
  capturePaymentSession: {
    missing: 'MissingField',
    invalid: 'MissingField',
    fields: { total_amount: 'TotalAmountInvalid' },
  },
  voidPaymentSession: { missing: 'MissingField', invalid: 'MissingField' },
  cancelPaymentSession: { missing: 'InvalidPaymentId', invalid: 'InvalidPaymentId' },
  createRefund: { missing: 'MissingField', invalid: 'MissingField', fields: { amount: 'AmountInvalid' } },
  createPaymentToken: { missing: 'MissingField', invalid: 'ValidationError' },
  // The reference lists ValidationError for this operation, and a malformed id is one.
  retrieveProvisionRequestEligibility: {
    missing: 'ValidationError',
    invalid: 'ValidationError',
    path: 'ValidationError',
  },
} satisfies ContractValidationCodes;

export const codesOf = (operationId: string): ValidationCodes =>
  (VALIDATION_CODES as Record<string, ValidationCodes>)[operationId] ?? UNDOCUMENTED_400;

/** Helpers of the sandbox document use its own codes. */
export const HELPER_CODES: ValidationCodes<HelperRefusalCode> = {
  missing: 'InvalidRequest',
  invalid: 'InvalidRequest',
};

/** The top-level body field an error is about ('' for the body itself). */
export const topField = (error: ErrorObject) =>
  error.keyword === 'required' && error.instancePath === ''
    ? String(error.params.missingProperty)
    : (error.instancePath.split('/')[1] ?? '');

function codeOf(error: ErrorObject, codes: ValidationCodes): string {
  for (const [pattern, code] of codes.rules ?? []) if (pattern.test(error.schemaPath)) return code;
  const field = topField(error);
  if (codes.fields?.[field] && !(error.keyword === 'required' && error.instancePath === '')) return codes.fields[field];
  return error.keyword === 'required' ? codes.missing : codes.invalid;
}

/** Why a conditional rule holds, appended to its message. */
const RULE_REASONS: Array<[RegExp, string]> = [
  [/dependentSchemas\/payment_token/, ' when payment_token is given'],
  [/dependentSchemas\/display_next_bill_info/, ' for a free trial (display_next_bill_info)'],
];

/**
 * The most reasons one refusal gives: a body of thousands of unknown fields (256 KiB) would
 * otherwise be answered by a refusal several times its size.
 */
export const MOST_REASONS = 10;

/** Reads ajv's errors as one sentence a partner engineer can act on. */
export function describe(errors: ErrorObject[], where: string): string {
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'if' || error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const at = `${where}${error.instancePath.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}`.replace(/^\./, '');
    let text: string;
    if (error.keyword === 'required') text = `${at ? `${at}.` : ''}${error.params.missingProperty} is required`;
    else if (error.keyword === 'additionalProperties')
      text = `${at || 'the body'} has an unknown field ${quoted(String(error.params.additionalProperty))}`;
    else if (error.keyword === 'enum')
      text =
        `${at} must be one of ` +
        `${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    else if (error.keyword === 'type')
      text = `${at || 'the body'} must be ${String(error.params.type)
        .split(',')
        .map((type) => (type === 'null' ? 'null' : `a${/^[aeiou]/.test(type) ? 'n' : ''} ${type}`))
        .join(' or ')}`;
    else if (error.keyword === 'const')
      text =
        `${at} must be ` +
        `${JSON.stringify(error.params.allowedValue)}` +
        `${RULE_REASONS.find(([p]) => p.test(error.schemaPath))?.[1] ?? ''}`;
    else text = `${at || 'the body'} ${error.message}`;
    seen.add(text.trim());
  }
  const reasons = [...seen];
  const more = reasons.length - MOST_REASONS;
  return `${reasons.slice(0, MOST_REASONS).join('; ')}${more > 0 ? `; and ${more} more` : ''}.`;
}

/** The code of the most telling violation: the first that maps to a specific code, else the first. */
export function codeFor(errors: ErrorObject[], codes: ValidationCodes): string {
  const relevant = errors.filter((e) => e.keyword !== 'if');
  const specific = relevant.find((e) => codeOf(e, codes) !== codes.missing && codeOf(e, codes) !== codes.invalid);
  const missing = relevant.find((e) => e.keyword === 'required' && e.instancePath === '');
  return codeOf(specific ?? missing ?? relevant[0]!, codes);
}
