// The acks a cursor handle coalesces into group commits, as values: a cumulative ack (whole entry or some batch
// indexes of it, optionally with new position properties) or a list of individual acks. Checked when submitted
// (before any I/O) and applied to a working view by a pure function. No I/O here.
import { ErrorCode, NereusError } from "@nereus/core";
import type { AckView } from "../ack-state/ack-view.js";
import { type BatchBits, classifyBatchBits } from "../ack-state/batch-bits.js";
import { checkOffset } from "../ack-state/check-offset.js";
import { cumulativeAck, cumulativePartialAck } from "../ack-state/cumulative-ack.js";
import { type IndividualAck, individualAcks, normalizeIndividualAcks } from "../ack-state/individual-acks.js";
import { propertyMapsEqual } from "./property-maps.js";

/** A cumulative ack: every entry below `offset`, and `offset` itself (wholly, or the indexes `batch` clears). */
interface CumulativeAckRequest {
  readonly kind: "cumulative";
  readonly offset: number;
  readonly batch: BatchBits | undefined;
  /** Replaces the position properties when the ack moves (or restates) the mark-delete position. */
  readonly positionProperties: ReadonlyMap<string, bigint> | undefined;
}

/** Individual acks, applied all or nothing. */
interface IndividualAckRequest {
  readonly kind: "individual";
  readonly items: readonly IndividualAck[];
}

export type AckRequest = CumulativeAckRequest | IndividualAckRequest;

/** The working state an ack changes: the view and the position properties. */
export interface AckWorkingState {
  readonly view: AckView;
  readonly positionProperties: ReadonlyMap<string, bigint>;
}

/** An ack applied to a working state: the next state, and whether anything changed. */
export interface AppliedAck {
  readonly state: AckWorkingState;
  readonly applied: boolean;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Throws INVALID_ARGUMENT unless `request` is well formed (offsets, bit maps, property values, item count). */
export function checkAckRequest(request: AckRequest, maxAcksPerRequest: number): void {
  if (request.kind === "cumulative") {
    checkOffset(request.offset, "cumulative ack offset");
    if (request.batch !== undefined) classifyBatchBits(request.batch);
    if (request.positionProperties !== undefined) checkPositionProperties(request.positionProperties);
    return;
  }
  if (!Array.isArray(request.items)) throw invalid("individual acks must be an array");
  if (request.items.length > maxAcksPerRequest) {
    throw invalid(
      `an individual ack request carries ${String(request.items.length)} acks; limits.maxAcksPerRequest is ${String(maxAcksPerRequest)}`,
    );
  }
  normalizeIndividualAcks(request.items);
}

/** Acks one request weighs in a group commit. */
export function ackWeight(request: AckRequest): number {
  return request.kind === "cumulative" ? 1 : Math.max(1, request.items.length);
}

/**
 * `request` applied to `state`. A cumulative ack that does not move the position still replaces differing position
 * properties when it names exactly the current position. Throws INVALID_ARGUMENT for a request the state refuses
 * (a batch size other than the entry's known one).
 */
export function applyAck(state: AckWorkingState, request: AckRequest): AppliedAck {
  if (request.kind === "individual") {
    const mutation = individualAcks(state.view, request.items);
    return { state: mutation.applied ? { ...state, view: mutation.view } : state, applied: mutation.applied };
  }
  const { offset, batch, positionProperties } = request;
  const mutation =
    batch === undefined ? cumulativeAck(state.view, offset) : cumulativePartialAck(state.view, offset, batch);
  if (mutation.applied) {
    return {
      state: { view: mutation.view, positionProperties: positionProperties ?? state.positionProperties },
      applied: true,
    };
  }
  const currentPosition = batch === undefined ? state.view.markDeleteOffset - 1 : state.view.markDeleteOffset;
  if (
    positionProperties === undefined ||
    offset !== currentPosition ||
    propertyMapsEqual(positionProperties, state.positionProperties)
  ) {
    return { state, applied: false };
  }
  return { state: { ...state, positionProperties }, applied: true };
}

function checkPositionProperties(properties: ReadonlyMap<string, bigint>): void {
  if (!(properties instanceof Map)) throw invalid("position properties must be a Map<string, bigint>");
  for (const [key, value] of properties) {
    if (typeof key !== "string" || key.length === 0) throw invalid("position property names must be non-empty strings");
    if (typeof value !== "bigint" || value < INT64_MIN || value > INT64_MAX) {
      throw invalid(`position property ${key} must be a 64-bit signed bigint`);
    }
  }
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}

/** The highest entry offset `request` acknowledges anything of (undefined for an empty request). */
export function highestAckedOffset(request: AckRequest): number | undefined {
  if (request.kind === "cumulative") return request.offset;
  let highest: number | undefined;
  for (const item of request.items) if (highest === undefined || item.offset > highest) highest = item.offset;
  return highest;
}
