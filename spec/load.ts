/**
 * The one way in to the contract: the loaded documents (`documents.ts`), the error catalog
 * (`catalog.ts`), the requirements register (`register.ts`), Ajv validators for every
 * component schema (`schemas.ts`), the operations with their references resolved
 * (`operations.ts`), and the integration document's types under their schema names.
 * The server validates requests and the conformance suite validates responses with these same
 * validators.
 */
import type { components } from './openapi-types.ts';

export type { CatalogCode } from './catalog-codes.ts';
export { type Json, openapi, orderStatuses, orderTypes, type ParsedDocument, parseDocument, parsedDocuments, sandboxOpenapi, specHash, tripStatuses } from './documents.ts';
export { catalog, type CatalogEntry, catalogEntry, type Reach, statusesOf } from './catalog.ts';
export { citationOf, type RegisterEntry, type RequirementLevel, requirements } from './register.ts';
export {
  createAjv,
  type DocumentName,
  isIsoCountry,
  isIsoCurrency,
  isWellFormedText,
  requireWellFormedText,
  schemaRef,
  sharedAjv,
  standaloneSchema,
  validateSchema,
  validator,
  WELL_FORMED_KEYWORD,
} from './schemas.ts';
export { type HeaderSpec, listOperations, type OperationSpec, operations, type ParameterSpec, resolveRef, type ResponseSpec } from './operations.ts';

/** The integration document's schemas, by their names (generated into openapi-types.ts). */
type Schemas = components['schemas'];
export type Order = Schemas['Order'];
export type OrderPage = Schemas['OrderPage'];
export type Trip = Schemas['Trip'];
export type TripPage = Schemas['TripPage'];
export type PaymentRequest = Schemas['PaymentRequest'];
export type CancelRequest = Schemas['CancelRequest'];
export type KeyIdentity = Schemas['KeyIdentity'];
export type FieldError = Schemas['FieldError'];
export type ValidationProblem = Schemas['ValidationProblem'];
export type Problem = Schemas['Problem'];
export type OrderStatusName = Schemas['OrderStatusName'];
export type OrderType = Schemas['OrderType'];
export type TripStatus = Schemas['TripStatus'];
