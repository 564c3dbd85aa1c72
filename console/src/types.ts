/**
 * The shapes and enums the console reads from the control plane and the integration API, named
 * for the views: each is generated from spec/sandbox.yaml or spec/openapi.yaml
 * (`npm run gen:types`), so none is written here by hand.
 */

import type { components as integration } from '../../spec/openapi-types.ts';
import type { components as sandbox } from '../../spec/sandbox-types.ts';

type Integration = integration['schemas'];
type Sandbox = sandbox['schemas'];

export {
  /** Every order status, in life order (`OrderStatusName`). */
  orderStatusNameValues as ORDER_STATUSES,
  /** Every order type (`OrderType`). */
  orderTypeValues as ORDER_TYPES,
  /** Every trip status (`TripStatus`, D16). */
  tripStatusValues as TRIP_STATUSES,
} from '../../spec/openapi-types.ts';
export {
  /** What a fault does to a call (`FaultKind`, D51). */
  faultKindValues as FAULT_KINDS,
  /** The integration API's operations, as fault rules and the request log name them. */
  integrationOperationValues as INTEGRATION_OPERATIONS,
  /** The problems a 429 fault may answer. */
  newFaultRuleProblemTypeValues as FAULT_PROBLEM_TYPES,
  /** The statuses a `status` fault answers. */
  newFaultRuleStatusValues as FAULT_STATUSES,
  /** When a fault strikes a write. */
  newFaultRuleWhenValues as FAULT_WHENS,
  /** A line's role. */
  lineRoleValues as LINE_ROLES,
  /** The catalog's scopes (D2). */
  scopeValues as SCOPES,
  /** The status classes the request log filters by. */
  componentsParametersRequestLogStatusClassValues as STATUS_CLASSES,
  /** What a stop's outcome may say. */
  stopOutcomeRequestStatusValues as STOP_OUTCOME_STATUSES,
  /** A tenant's lifecycle states (D22). */
  tenantStateValues as TENANT_STATES,
} from '../../spec/sandbox-types.ts';

/**
 * The writes: only they take a fault's `when` (D51). The contract marks them by method, which
 * the console cannot read; spec/status-lists.test.ts holds this copy to it.
 */
export const WRITE_OPERATIONS: readonly string[] = ['attachPayment', 'cancelOrder', 'archiveOrder'];

/** A tenant (`Tenant`). */
export type Tenant = Sandbox['Tenant'];
/** A scope of the catalog (`Scope`, D2). */
export type Scope = Sandbox['Scope'];
/** An API key as the key list shows it (`ApiKey`). */
export type ApiKey = Sandbox['ApiKey'];
/** A new key with its secret, shown once (`CreatedApiKey`). */
export type CreatedApiKey = Sandbox['CreatedApiKey'];
/** A tag of the directory (`Tag`). */
export type Tag = Sandbox['Tag'];
/** A mini-status of the directory (`MiniStatus`). */
export type MiniStatus = Sandbox['MiniStatus'];
/** An order as the feed reports it (`Order`). */
export type Order = Integration['Order'];
/** A page of the order feed (`OrderPage`). */
export type OrderPage = Integration['OrderPage'];
/** An order with its lines, related order, trip and archive time (`OrderDetail`). */
export type OrderDetail = Sandbox['OrderDetail'];
/** One event of an order's history (`HistoryEntry`). */
export type HistoryEntry = Sandbox['HistoryEntry'];
/** A page of an order's history (`HistoryPage`). */
export type HistoryPage = Sandbox['HistoryPage'];
/** The answer to an import (`ImportResult`). */
export type ImportResult = Sandbox['ImportResult'];
/** A stop of a trip (`Stop`). */
export type Stop = Sandbox['Stop'];
/** What happened to a line of a stop (`LineOutcome`). */
export type LineOutcome = Sandbox['LineOutcome'];
/** Which quantities a line's outcome takes (`StopLine.vocabulary`). */
export type Vocabulary = Sandbox['StopLine']['vocabulary'];
/** A trip as the feed reports it (`Trip`). */
export type Trip = Integration['Trip'];
/** A page of the trip feed (`TripPage`). */
export type TripPage = Integration['TripPage'];
/** A trip with its stops (`TripDetail`). */
export type TripDetail = Sandbox['TripDetail'];
/** What a fault does to a call (`FaultKind`, D51). */
export type FaultKind = Sandbox['FaultKind'];
/** A fault rule of a tenant (`FaultRule`). */
export type FaultRule = Sandbox['FaultRule'];
/** One request of the request log, without bodies (`RequestLogSummary`, D48). */
export type LogSummary = Sandbox['RequestLogSummary'];
/** A page of the request log (`RequestLogPage`). */
export type LogPage = Sandbox['RequestLogPage'];
/** A request or response body of a log entry, cut at 16 KiB (`RequestLogBody`). */
export type LogBody = Sandbox['RequestLogBody'];
/** One request of the request log with its bodies (`RequestLogEntry`). */
export type LogEntry = Sandbox['RequestLogEntry'];
/** The fault a call met, as its request-log entry marks it (`RequestLogFault`). */
export type RequestLogFault = Sandbox['RequestLogFault'];
/** A tenant's test clock (`Clock`, D52). */
export type Clock = Sandbox['Clock'];
/** How the clock is set (`ClockSetting`). */
export type ClockSetting = Sandbox['ClockSetting'];
/** The answer to an advance: the clock after it, and the changes the simulation made (`ClockAdvanced`). */
export type ClockAdvanced = Sandbox['ClockAdvanced'];
/** A tenant's living-feed simulation (`Simulation`, D53). */
export type Simulation = Sandbox['Simulation'];
