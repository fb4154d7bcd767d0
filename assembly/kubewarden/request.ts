// Decoding the `validate` payload `{"request": <AdmissionRequest>, "settings": …}`
// (docs/wasm-contract.md#validate). The request arrives camelCase with absent optionals omitted.
// Decoding never traps: structural problems come back as an error string; scalar fields of the
// wrong JSON type read as "" / false so planners decide what matters to them.
import { JsonValue, parseJson } from "../json/index";

/** `request.operation` values the policies tell apart. */
// @ts-ignore: decorator
@lazy
export const OPERATION_CREATE = "CREATE";
// @ts-ignore: decorator
@lazy
export const OPERATION_UPDATE = "UPDATE";

export class GroupVersionKind {
  constructor(
    public group: string,
    public version: string,
    public kind: string,
  ) {}
}

export class GroupVersionResource {
  constructor(
    public group: string,
    public version: string,
    public resource: string,
  ) {}
}

/** A read-only view of one admission request plus the policy settings. Each field is read from
 *  the request when asked for (a policy reads two or three of them: decoding all eleven up front
 *  cost every policy code and allocations it never used). */
export class ValidationRequest {
  /** the raw `request` node (live DOM) */
  request: JsonValue;
  /** the settings object; an empty object when absent or null */
  settings: JsonValue;
  /** `request.object`; null when absent or JSON null (DELETE) */
  object: JsonValue | null;
  /** `request.oldObject`; null when absent or JSON null */
  oldObject: JsonValue | null;

  constructor(request: JsonValue, settings: JsonValue) {
    this.request = request;
    this.settings = settings;
    this.object = request.getPresent("object");
    this.oldObject = request.getPresent("oldObject");
  }

  get uid(): string {
    return stringOrEmpty(this.request, "uid");
  }
  get operation(): string {
    return stringOrEmpty(this.request, "operation");
  }
  get namespace(): string {
    return stringOrEmpty(this.request, "namespace");
  }
  get name(): string {
    return stringOrEmpty(this.request, "name");
  }
  get subResource(): string {
    return stringOrEmpty(this.request, "subResource");
  }
  get dryRun(): bool {
    return this.request.memberIsBool("dryRun", true);
  }
  get kind(): GroupVersionKind {
    const kind = this.request.get("kind");
    if (kind === null) return new GroupVersionKind("", "", "");
    return new GroupVersionKind(
      stringOrEmpty(kind, "group"),
      stringOrEmpty(kind, "version"),
      stringOrEmpty(kind, "kind"),
    );
  }
  get resource(): GroupVersionResource {
    const resource = this.request.get("resource");
    if (resource === null) return new GroupVersionResource("", "", "");
    return new GroupVersionResource(
      stringOrEmpty(resource, "group"),
      stringOrEmpty(resource, "version"),
      stringOrEmpty(resource, "resource"),
    );
  }

  /** `request.namespace`, else `object.metadata.namespace` (Pod CREATE may omit the latter), else "". */
  namespaceOrObjectNamespace(): string {
    const namespace = this.namespace;
    if (namespace.length > 0) return namespace;
    const object = this.object;
    if (object === null) return "";
    const metadata = object.get("metadata");
    if (metadata === null) return "";
    const ns = metadata.stringOrNull("namespace");
    return ns !== null ? ns : "";
  }
}

/** The outcome of decoding: `request` is non-null iff `error` is "". */
export class DecodedRequest {
  constructor(
    public request: ValidationRequest | null,
    public error: string,
  ) {}
  get ok(): bool {
    return this.request !== null;
  }
}

function failed(error: string): DecodedRequest {
  return new DecodedRequest(null, error);
}

/** Decodes a `validate` payload. Errors: not JSON, not an object, `request` missing or not an
 *  object, `settings` present and neither null nor an object. */
export function decodeValidationPayload(payload: Uint8Array): DecodedRequest {
  const parsed = parseJson(payload);
  const root = parsed.value;
  if (root === null) return failed("payload is not valid JSON: " + parsed.error);
  if (!root.isObject()) return failed("payload is not a JSON object");
  const request = root.get("request");
  if (request === null) return failed("payload has no request");
  if (!request.isObject()) return failed("request is not an object");
  let settings = root.get("settings");
  if (settings === null || settings.isNull()) {
    settings = JsonValue.object();
  } else if (!settings.isObject()) {
    return failed("settings is not an object");
  }
  return new DecodedRequest(new ValidationRequest(request, settings), "");
}

function stringOrEmpty(node: JsonValue, key: string): string {
  // readString(key) Ok, without its node and Read
  const s = node.stringOrNull(key);
  return s !== null ? s : "";
}
