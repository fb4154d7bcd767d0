// Kubewarden response envelopes (docs/wasm-contract.md#validate-response): the exact snake_case
// bytes policy-evaluator deserializes. Optional keys are omitted when absent; every string goes
// through ByteSink.writeJsonString; a mutated object is serialized through the DOM so untouched
// bytes survive.
import { i32ToDecimal } from "../util/decimal";
import { ByteSink, JsonValue } from "../json/index";
import { isFirstCall } from "../wapc/index";

/** Bytes left free before the request of a mutating policy (`handleGuestCall`), for its response
 *  to be written over the request: a mutated object is written from before the request's start
 *  when it adds bytes before its last copy out of the request, and ends past the request's end
 *  when it adds more than the request's envelope held. The injectors add 0.4–1.5 KB to a pod;
 *  memory left unwritten costs nothing on a fresh instance. */
export const ROOM_FOR_EDITS: i32 = 1024;

/** Insertion-ordered string map (audit annotations); setting an existing key replaces it in place. */
export class OrderedStringMap {
  keys: string[] = new Array<string>(0);
  values: string[] = new Array<string>(0);

  get size(): i32 {
    return this.keys.length;
  }

  set(key: string, value: string): void {
    const i = this.keys.indexOf(key);
    if (i >= 0) {
      this.values[i] = value;
      return;
    }
    this.keys.push(key);
    this.values.push(value);
  }

  /** "" when absent */
  get(key: string): string {
    const i = this.keys.indexOf(key);
    return i >= 0 ? this.values[i] : "";
  }

  has(key: string): bool {
    return this.keys.indexOf(key) >= 0;
  }
}

/** A `validate` response being built; `toBytes()` gives the wire form. */
export class ValidationResponse {
  accepted: bool;
  message: string | null = null;
  /** -1 = absent; otherwise a u16 */
  code: i32 = -1;
  mutatedObject: JsonValue | null = null;
  warnings: string[] = new Array<string>(0);
  auditAnnotations: OrderedStringMap = new OrderedStringMap();

  constructor(accepted: bool) {
    this.accepted = accepted;
  }

  withMessage(message: string): ValidationResponse {
    this.message = message;
    return this;
  }

  withCode(code: u16): ValidationResponse {
    this.code = <i32>code;
    return this;
  }

  /** The WHOLE object; the host diffs it against request.object. */
  withMutatedObject(object: JsonValue): ValidationResponse {
    this.mutatedObject = object;
    return this;
  }

  withWarning(warning: string): ValidationResponse {
    this.warnings.push(warning);
    return this;
  }

  withAuditAnnotation(key: string, value: string): ValidationResponse {
    this.auditAnnotations.set(key, value);
    return this;
  }

  /** Key order follows the contract's listing: accepted, message, code, mutated_object,
   *  audit_annotations, warnings. */
  writeTo(sink: ByteSink): void {
    sink.writeUtf8(this.accepted ? '{"accepted":true' : '{"accepted":false');
    const message = this.message;
    if (message !== null) {
      sink.writeUtf8(',"message":');
      sink.writeJsonString(message);
    }
    if (this.code >= 0) {
      sink.writeUtf8(',"code":');
      sink.writeUtf8(i32ToDecimal(this.code));
    }
    const object = this.mutatedObject;
    if (object !== null) {
      sink.writeUtf8(',"mutated_object":');
      object.writeTo(sink);
    }
    if (this.auditAnnotations.size > 0) {
      sink.writeUtf8(',"audit_annotations":');
      writeStringMap(sink, this.auditAnnotations);
    }
    if (this.warnings.length > 0) {
      sink.writeUtf8(',"warnings":');
      writeStringList(sink, this.warnings);
    }
    sink.writeByte(0x7d); // }
  }

  toBytes(): Uint8Array {
    const sink = this.ownSink();
    this.writeTo(sink);
    return sink.bytes();
  }

  /**
   * The wire form written over `request`'s buffer when that is safe, else as `toBytes()`; the
   * caller reads neither again. A mutated object is mostly copies of the request's own bytes, so
   * on a fresh instance a response of its own writes about as many new pages again (issue 8);
   * written over the request it writes none. A first pass writes nothing and measures: the output
   * may start at any offset of the buffer from which every copy out of the request starts at or
   * after where the output then is, and from which it still fits (the buffer may have room before
   * the request, `readInvocation`); the highest such offset is taken. Values moved before their
   * place, or more bytes added than the room holds, give a buffer of its own.
   */
  toBytesOver(request: Uint8Array): Uint8Array {
    const buffer = request.buffer;
    const room = request.byteOffset;
    // a reused instance faults in the pages of a buffer of its own once (on its second call) and
    // reuses them after: measuring on every call would cost a pass each time for no page
    const measure = this.mutatedObject !== null && isFirstCall();
    let sink = measure ? ByteSink.measuring(buffer, room, min(room, 64)) : this.ownSink();
    // one call of writeTo for both passes, so that it stays inlined (module size)
    while (true) {
      this.writeTo(sink);
      if (!sink.measures) break;
      const offset = sink.placeOver();
      sink = offset >= 0 ? ByteSink.over(buffer, offset) : this.ownSink();
    }
    return sink.bytes();
  }

  /** One buffer, no regrowth (a regrown buffer leaves its first one behind on the pages a fresh
   *  instance writes, and the writer's own small allocations sit after it, so it cannot grow in
   *  place): a mutated object's source span, a quarter again and 1 KB for the edits (CacheBlend's
   *  wiring adds ~1.5 KB to a 5 KB pod), the message with the worst-case room writeJsonString
   *  reserves (6 bytes a unit), and a fixed allowance for the rest. Capacity never written is
   *  never faulted in, but what the writer allocates after the buffer lands past it, so the slack
   *  is kept small (measured: half again wrote one more page for lmcache-injector's pod). */
  private ownSink(): ByteSink {
    const object = this.mutatedObject;
    const message = this.message;
    const source = object !== null ? object.sourceLength() : -1;
    let hint = source >= 0 ? source + (source >> 2) + 1024 + ByteSink.bulk : 256;
    if (message !== null) hint += message.length * 6 + 2;
    return new ByteSink(hint);
  }

  toString(): string {
    return bytesToString(this.toBytes());
  }
}

/** `{"accepted":true}` plus whatever the caller adds. */
export function accept(): ValidationResponse {
  return new ValidationResponse(true);
}

/** `{"accepted":false,"message":…,"code":…}` */
export function reject(message: string, code: u16): ValidationResponse {
  return new ValidationResponse(false).withMessage(message).withCode(code);
}

/** `{"accepted":true,"mutated_object":<object>}` */
export function mutate(object: JsonValue): ValidationResponse {
  return new ValidationResponse(true).withMutatedObject(object);
}

/** `{"valid":true}` */
export function settingsValid(): Uint8Array {
  const sink = new ByteSink(16);
  sink.writeUtf8('{"valid":true}');
  return sink.bytes();
}

/** `{"valid":false,"message":"…"}` */
export function settingsInvalid(message: string): Uint8Array {
  const sink = new ByteSink(64 + message.length);
  sink.writeUtf8('{"valid":false,"message":');
  sink.writeJsonString(message);
  sink.writeByte(0x7d);
  return sink.bytes();
}

function writeStringList(sink: ByteSink, items: string[]): void {
  sink.writeByte(0x5b); // [
  for (let i = 0; i < items.length; i++) {
    if (i > 0) sink.writeByte(0x2c);
    sink.writeJsonString(items[i]);
  }
  sink.writeByte(0x5d); // ]
}

function writeStringMap(sink: ByteSink, map: OrderedStringMap): void {
  sink.writeByte(0x7b); // {
  for (let i = 0; i < map.keys.length; i++) {
    if (i > 0) sink.writeByte(0x2c);
    sink.writeJsonString(map.keys[i]);
    sink.writeByte(0x3a);
    sink.writeJsonString(map.values[i]);
  }
  sink.writeByte(0x7d);
}

/** Decodes UTF-8 bytes (a view) to a string; for tests and messages. */
export function bytesToString(bytes: Uint8Array): string {
  return String.UTF8.decodeUnsafe(bytes.dataStart, <usize>bytes.length);
}
