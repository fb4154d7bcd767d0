// metadata.annotations / metadata.labels: validation, reads and edits. Reads distinguish absent,
// null, string and wrong type; edits create `metadata`/the map when absent or null.
import { JsonValue, Read, ReadState } from "../json/index";
import { ensureObjectMember } from "./fields";
import { shortenRendered } from "../validate/shorten";

// @ts-ignore: decorator
@lazy
export const ANNOTATIONS = "annotations";
// @ts-ignore: decorator
@lazy
export const LABELS = "labels";

/** What the API server allows for all of an object's annotations together, keys and values in
 *  bytes (apimachinery's TotalAnnotationSizeLimitB). It checks after admission, so a larger pod is
 *  refused whatever a mutating policy does to it. */
// @ts-ignore: decorator
@inline
export const MAX_ANNOTATIONS_BYTES: i32 = 262144;

/** true when one annotation alone is over MAX_ANNOTATIONS_BYTES, so the object can never be
 *  stored: a policy need not read it. A key is ASCII and a UTF-16 unit never stands for fewer
 *  than one UTF-8 byte, so counting units never says so of an object that could be stored. */
export function annotationOverTotalLimit(key: string, value: string): bool {
  return key.length + value.length > MAX_ANNOTATIONS_BYTES;
}

/** "" when `object` is an object whose `metadata` is absent/null or an object whose
 *  `metadata.<mapName>` is absent, null or an object of strings; else the detail text. */
export function checkMetadataStringMap(object: JsonValue, mapName: string): string {
  if (!object.isObject()) return "object is not a JSON object";
  const metadata = object.getPresent("metadata");
  if (metadata === null) return "";
  if (!metadata.isObject()) return "metadata is not an object";
  const map = metadata.getPresent(mapName);
  if (map === null) return "";
  if (!map.isObject()) return "metadata." + mapName + " is not an object";
  const n = map.size();
  for (let i = 0; i < n; i++) {
    if (!map.itemIsDecodableString(i)) {
      // the key is echoed: shortened past 1 KiB like every echoed value
      return "metadata." + mapName + "[" + shortenRendered(map.keyAt(i)) + "] is not a string";
    }
  }
  return "";
}

/** Annotations present and all values strings (or no annotations at all). */
export function checkAnnotations(object: JsonValue): string {
  return checkMetadataStringMap(object, ANNOTATIONS);
}

export function checkLabels(object: JsonValue): string {
  return checkMetadataStringMap(object, LABELS);
}

/** "" when an annotation can be set/removed (object; metadata and annotations objects or unset). */
export function checkAnnotationsWritable(object: JsonValue): string {
  if (!object.isObject()) return "object is not a JSON object";
  const metadata = object.getPresent("metadata");
  if (metadata === null) return "";
  if (!metadata.isObject()) return "metadata is not an object";
  const map = metadata.getPresent(ANNOTATIONS);
  if (map === null) return "";
  if (!map.isObject()) return "metadata.annotations is not an object";
  return "";
}

/** `metadata.<mapName>[key]`: Absent when the metadata, map or key is missing; Null; Ok; Invalid
 *  (value or a container on the way has the wrong type). */
export function readMetadataString(object: JsonValue, mapName: string, key: string): Read<string> {
  if (!object.isObject()) return new Read<string>(ReadState.Invalid, "", "object is not a JSON object");
  const metadata = object.getPresent("metadata");
  if (metadata === null) return new Read<string>(ReadState.Absent, "");
  if (!metadata.isObject()) return new Read<string>(ReadState.Invalid, "", "metadata is not an object");
  const map = metadata.getPresent(mapName);
  if (map === null) return new Read<string>(ReadState.Absent, "");
  if (!map.isObject()) return new Read<string>(ReadState.Invalid, "", "metadata." + mapName + " is not an object");
  return map.readString(key);
}

export function readAnnotation(object: JsonValue, key: string): Read<string> {
  return readMetadataString(object, ANNOTATIONS, key);
}

export function readLabel(object: JsonValue, key: string): Read<string> {
  return readMetadataString(object, LABELS, key);
}

/** The annotation value when it is a string, else "" (absent, null or wrong type). */
export function annotationOrEmpty(object: JsonValue, key: string): string {
  // readAnnotation(object, key) Ok, without its Read
  const map = metadataMapOrNull(object, ANNOTATIONS);
  if (map === null) return "";
  const s = map.stringOrNull(key);
  return s !== null ? s : "";
}

/** Whether the annotation is a string equal to `value` (readAnnotation Ok with that value), compared
 *  without decoding it. */
export function annotationEquals(object: JsonValue, key: string, value: string): bool {
  const map = metadataMapOrNull(object, ANNOTATIONS);
  return map !== null && map.stringEquals(key, value);
}

/** `metadata.<mapName>` when `object`, its metadata and the map are all objects, else null. */
function metadataMapOrNull(object: JsonValue, mapName: string): JsonValue | null {
  if (!object.isObject()) return null;
  const metadata = object.get("metadata");
  if (metadata === null || !metadata.isObject()) return null;
  const map = metadata.get(mapName);
  return map !== null && map.isObject() ? map : null;
}

/** Sets `metadata.annotations[key] = value`, creating `metadata`/`annotations` when absent or null.
 *  An equal existing value is left untouched (no re-emission). False when a container on the way
 *  has the wrong type. */
export function setAnnotation(object: JsonValue, key: string, value: string): bool {
  const metadata = ensureObjectMember(object, "metadata");
  if (metadata === null) return false;
  const map = ensureObjectMember(metadata, ANNOTATIONS);
  if (map === null) return false;
  if (map.stringEquals(key, value)) return true;
  return map.set(key, JsonValue.str(value));
}

/** Removes `metadata.annotations[key]`; true when something was removed. With `dropEmptyMap`,
 *  an annotations map this removal leaves empty is removed too. */
export function removeAnnotation(object: JsonValue, key: string, dropEmptyMap: bool = false): bool {
  if (!object.isObject()) return false;
  const metadata = object.get("metadata");
  if (metadata === null || !metadata.isObject()) return false;
  const map = metadata.get(ANNOTATIONS);
  if (map === null || !map.isObject()) return false;
  if (!map.remove(key)) return false;
  if (dropEmptyMap && map.size() == 0) metadata.remove(ANNOTATIONS);
  return true;
}
