// Tier-2 resource rules (docs/policies/cachebackend-validator.md#rules-10-17): quantities of a
// `resources` block compared and checked with the shared Kubernetes quantity parser
// (assembly/validate/quantity.ts); every quantity in a message is printed as Kubernetes prints it.
import {
  FieldErrorList,
  invalidString,
  forbidden,
  isDns1123SubdomainBytes,
  goQuote,
} from "../../../assembly/validate/index";
import { Quantity, parseQuantity, isMultipleOf } from "../../../assembly/validate/quantity";
import { Backend, ResourceBlock, QuantityMap, rawStartsWith } from "./backend";
import { concat } from "../../../assembly/util/text";

// @ts-ignore: decorator
@lazy
const HUGEPAGES_PREFIX = "hugepages-";

/** The page size of a `hugepages-<size>` name; null when the name is not one or its size is not
 *  a positive quantity. */
function hugePageSize(name: string): Quantity | null {
  if (!name.startsWith(HUGEPAGES_PREFIX)) return null;
  const parsed = parseQuantity(name.substring(HUGEPAGES_PREFIX.length));
  const q = parsed.quantity;
  if (q === null || q.sign() <= 0) return null;
  return q;
}

/** Why `name` is not a valid container resource name, or "" when it is. */
export function resourceNameProblem(name: string): string {
  const bytes = String.UTF8.encode(name);
  return nameProblemIn(changetype<usize>(bytes), 0, bytes.byteLength);
}

/** resourceNameProblem of the UTF-8 name [s, e) at `data`, read in place (a name of every
 *  resource map is checked; a valid one is ASCII, so its bytes are its characters) */
function nameProblemIn(data: usize, s: i32, e: i32): string {
  if (rawStartsWith(data, s, e, HUGEPAGES_PREFIX)) {
    return hugePageSize(String.UTF8.decodeUnsafe(data + <usize>s, <usize>(e - s))) === null
      ? "hugepages resources need a positive page size (e.g. hugepages-2Mi)"
      : "";
  }
  let slash = -1;
  let slashes = 0;
  for (let i = s; i < e; i++) {
    if (load<u8>(data + <usize>i) != 0x2f) continue;
    if (slash < 0) slash = i;
    slashes++;
  }
  if (slash < 0) {
    const n = e - s;
    return (n == 3 && rawStartsWith(data, s, e, "cpu")) ||
      (n == 6 && rawStartsWith(data, s, e, "memory")) ||
      (n == 17 && rawStartsWith(data, s, e, "ephemeral-storage"))
      ? ""
      : "a resource without a domain prefix must be cpu, memory, ephemeral-storage or hugepages-<size>";
  }
  if (rawStartsWith(data, s, e, "kubernetes.io/") || rawStartsWith(data, s, e, "requests.kubernetes.io/")) {
    return "the kubernetes.io/ and requests.kubernetes.io/ prefixes are reserved for native resources";
  }
  // Kubernetes `IsQualifiedName` with a prefix: `<DNS-1123 subdomain>/<name>`, the name 1-63
  // characters of `[-A-Za-z0-9_.]`, alphanumeric at both ends
  let qualified = slashes == 1 && isDns1123SubdomainBytes(data, s, slash) && e - slash - 1 <= 63 && e - slash > 1;
  for (let i = slash + 1; i < e; i++) {
    const c = <i32>load<u8>(data + <usize>i);
    const alnum = <u32>(c - 0x30) < 10 || <u32>((c | 0x20) - 0x61) < 26;
    const inner = i > slash + 1 && i < e - 1;
    if (!alnum && !(inner && (c == 0x2d || c == 0x5f || c == 0x2e))) qualified = false;
  }
  return qualified
    ? ""
    : "must be a qualified name (a DNS subdomain prefix, '/', then at most 63 alphanumeric characters, '-', '_' or '.', starting and ending with an alphanumeric character)";
}

/** whether entry `k`'s name is cpu, memory or ephemeral-storage (compared in place) */
function overcommittableAt(map: QuantityMap, k: i32): bool {
  const names = map.names;
  return (
    names.keyStartsWith(k, "cpu", true) ||
    names.keyStartsWith(k, "memory", true) ||
    names.keyStartsWith(k, "ephemeral-storage", true)
  );
}

/** Rules `from`..`to` of 10-13 and 15-17 on one block (rule 14 is not about a block). */
export function checkResourceBlock(block: ResourceBlock, errs: FieldErrorList, from: i32, to: i32): void {
  for (let rule = from; rule <= to; rule++) {
    if (rule == 10) limitAgainstRequest(block, errs);
    else if (rule == 11) requestWithoutLimit(block, errs);
    else if (rule == 12) claimsUnsupported(block, errs);
    else if (rule == 13) perQuantity(block, errs, 13);
    else if (rule >= 15 && rule <= 17) perQuantity(block, errs, rule);
  }
}

// 10: a limit below its request (overcommittable) or different from it (the others)
function limitAgainstRequest(block: ResourceBlock, errs: FieldErrorList): void {
  const limitsPath = block.path.child("limits");
  const limits = block.limits;
  const requests = block.requests;
  for (let i = 0; i < limits.count; i++) {
    const r = requests.names.find(limits.names, i);
    if (r < 0) continue;
    const limit = limits.quantity(i);
    const request = requests.quantity(r);
    if (limit === null || request === null) continue;
    const over = overcommittableAt(limits, i);
    if (over ? limit.cmp(request) >= 0 : limit.cmp(request) == 0) continue;
    if (errs.full) {
      errs.omit(); // past the collection limit violations are only counted
      continue;
    }
    const name = limits.name(i);
    const requestText = block.label + ".requests[" + name + "] (" + request.toString() + ")";
    const detail = over
      ? "must be greater than or equal to " + requestText
      : "must equal " +
        requestText +
        " — " +
        goQuote(name) +
        " is a non-overcommittable resource (hugepages and extended resources require request == limit)";
    errs.add(invalidString(limitsPath.key(name), limit.toString(), detail));
  }
}

// 11: a non-overcommittable request without a limit
function requestWithoutLimit(block: ResourceBlock, errs: FieldErrorList): void {
  const requestsPath = block.path.child("requests");
  const requests = block.requests;
  for (let i = 0; i < requests.count; i++) {
    if (!requests.hasText(i) || overcommittableAt(requests, i) || block.limits.names.find(requests.names, i) >= 0)
      continue;
    if (errs.full) {
      errs.omit();
      continue;
    }
    // a value with a text parses (the others were reported where they were read)
    const name = requests.name(i);
    const requested = requests.quantity(i);
    errs.add(
      invalidString(
        requestsPath.key(name),
        requested !== null ? requested.toString() : "",
        concat(
          goQuote(name),
          " is a non-overcommittable resource — it must also be set in ",
          block.label,
          ".limits with the same value (hugepages and extended resources require requests and limits to be declared together)",
        ),
      ),
    );
  }
}

// 12: resource claims
function claimsUnsupported(block: ResourceBlock, errs: FieldErrorList): void {
  const claims = block.claims;
  if (claims === null || claims.size() == 0) return;
  errs.add(
    forbidden(
      block.path.child("claims"),
      block.label +
        ".claims is not supported in v1alpha1: the runtime adapter does not plumb pod.spec.resourceClaims, so a claim-bound container.resources.claims would render a pod the apiserver rejects",
    ),
  );
}

// 13, 15, 16, 17: each quantity of requests, then of limits
function perQuantity(block: ResourceBlock, errs: FieldErrorList, rule: i32): void {
  quantityMap(block, block.requests, "requests", errs, rule);
  quantityMap(block, block.limits, "limits", errs, rule);
}

function quantityMap(block: ResourceBlock, map: QuantityMap, key: string, errs: FieldErrorList, rule: i32): void {
  const mapPath = block.path.child(key);
  for (let i = 0; i < map.count; i++) {
    // whether the rule rejects the entry, decided without building the violation (nor decoding
    // the name); a quantity is parsed only when more than digits (digits are a whole,
    // non-negative number)
    let q: Quantity | null = null;
    let size: Quantity | null = null;
    let problem = "";
    if (rule == 13) {
      if (map.isPlain(i)) continue;
      q = map.quantity(i);
      if (q === null || q.sign() >= 0) continue;
    } else if (rule == 15) {
      problem = nameProblem(map, i);
      if (problem.length == 0) continue;
    } else {
      // only a valid name is checked, the cheap tests first: a quantity of more than digits (16),
      // a hugepages-<size> name (17)
      if (!map.hasText(i) || (rule == 16 ? map.isPlain(i) : !map.names.keyStartsWith(i, HUGEPAGES_PREFIX))) continue;
      if (nameProblem(map, i).length > 0) continue;
      if (rule == 16) {
        if (map.name(i).indexOf("/") < 0) continue;
        q = map.quantity(i);
        if (q === null || q.isInteger()) continue;
      } else {
        size = hugePageSize(map.name(i));
        if (size === null) continue;
        q = map.quantity(i);
        if (q === null || isMultipleOf(q, size)) continue;
      }
    }
    if (errs.full) {
      errs.omit(); // past the collection limit violations are only counted
      continue;
    }
    const name = map.name(i);
    const at = mapPath.key(name);
    // set above for every rule but 15 (which reports the name): "" never shows
    const shown = q !== null ? q.toString() : "";
    if (rule == 13) errs.add(invalidString(at, shown, "must be a non-negative quantity"));
    else if (rule == 15)
      errs.add(invalidString(at, name, goQuote(name) + " is not a valid container resource name: " + problem));
    else if (rule == 16)
      errs.add(
        invalidString(
          at,
          shown,
          goQuote(name) +
            " is an extended resource and must be an integer quantity — K8s allocates extended resources by whole units",
        ),
      );
    else
      errs.add(
        invalidString(
          at,
          shown,
          "must be a multiple of the page size " +
            (size !== null ? size.toString() : "") +
            " — the Linux kernel allocates hugepages in whole-page chunks",
        ),
      );
  }
}

/** resourceNameProblem of entry `i` (rules 15-17 each ask), on the raw name when it is ASCII
 *  without escapes */
function nameProblem(map: QuantityMap, i: i32): string {
  const names = map.names;
  const m = unchecked(names.positions[i]);
  const n = unchecked(names.lengths[m]);
  const s = unchecked(names.starts[m]);
  return n >= 0 ? nameProblemIn(names.data, s, s + n) : resourceNameProblem(unchecked(names.decoded[s]));
}

// 14: lmCache.hostMemory.capacity must be positive
export function checkHostMemoryCapacity(b: Backend, errs: FieldErrorList): void {
  const capacity = b.hostMemoryCapacity;
  if (capacity === null || capacity.sign() > 0) return;
  const path = b.hostMemoryPath;
  errs.add(invalidString(path, capacity.toString(), "must be greater than zero"));
}
