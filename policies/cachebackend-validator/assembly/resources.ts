// Tier-2 resource rules (docs/policies/cachebackend-validator.md#rules-10-17): quantities of a
// `resources` block compared and checked with the shared Kubernetes quantity parser
// (assembly/validate/quantity.ts); every quantity in a message is printed as Kubernetes prints it.
import {
  FieldErrorList,
  invalidString,
  forbidden,
  matchesDns1123SubdomainPatternIn,
  DNS1123_SUBDOMAIN_MAX_LENGTH,
  goQuote,
} from "../../../assembly/validate/index";
import { Quantity, parseQuantity, isMultipleOf } from "../../../assembly/validate/quantity";
import { Backend, ResourceBlock, QuantityMap, isPlainInteger } from "./backend";

// @ts-ignore: decorator
@lazy
const HUGEPAGES_PREFIX = "hugepages-";

function overcommittable(name: string): bool {
  return name == "cpu" || name == "memory" || name == "ephemeral-storage";
}

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
  if (name.startsWith(HUGEPAGES_PREFIX)) {
    return hugePageSize(name) === null ? "hugepages resources need a positive page size (e.g. hugepages-2Mi)" : "";
  }
  const slash = name.indexOf("/");
  if (slash < 0) {
    return overcommittable(name)
      ? ""
      : "a resource without a domain prefix must be cpu, memory, ephemeral-storage or hugepages-<size>";
  }
  if (name.startsWith("kubernetes.io/") || name.startsWith("requests.kubernetes.io/")) {
    return "the kubernetes.io/ and requests.kubernetes.io/ prefixes are reserved for native resources";
  }
  if (!isQualifiedName(name)) {
    return "must be a qualified name (a DNS subdomain prefix, '/', then at most 63 alphanumeric characters, '-', '_' or '.', starting and ending with an alphanumeric character)";
  }
  return "";
}

function isNameChar(c: i32, inner: bool): bool {
  const alnum = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  return alnum || (inner && (c == 0x2d || c == 0x5f || c == 0x2e));
}

/** Kubernetes `IsQualifiedName` for a name with a prefix: `<DNS-1123 subdomain>/<name>`, the
 *  name 1-63 characters of `[-A-Za-z0-9_.]`, alphanumeric at both ends. */
function isQualifiedName(s: string): bool {
  const slash = s.indexOf("/");
  if (slash != s.lastIndexOf("/")) return false;
  // read in place: a name of every resource map is checked
  if (slash == 0 || slash > DNS1123_SUBDOMAIN_MAX_LENGTH || !matchesDns1123SubdomainPatternIn(s, 0, slash))
    return false;
  const n = s.length - slash - 1;
  if (n == 0 || n > 63) return false;
  for (let i = slash + 1; i < s.length; i++) {
    const inner = i > slash + 1 && i < s.length - 1;
    if (!isNameChar(s.charCodeAt(i), inner)) return false;
  }
  return true;
}

/** Position of `name` in the sorted `names`, or -1 (binary search: maps can be long). */
function indexOf(names: string[], name: string): i32 {
  let lo = 0;
  let hi = names.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const m = unchecked(names[mid]);
    if (m == name) return mid;
    if (m < name) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
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
  for (let i = 0; i < limits.names.length; i++) {
    const name = limits.names[i];
    const r = indexOf(requests.names, name);
    if (r < 0) continue;
    const limit = limits.quantity(i);
    const request = requests.quantity(r);
    if (limit === null || request === null) continue;
    if (overcommittable(name) ? limit.cmp(request) >= 0 : limit.cmp(request) == 0) continue;
    if (errs.full) {
      errs.omit(); // past the collection limit violations are only counted
      continue;
    }
    const requestText = block.label + ".requests[" + name + "] (" + request.toString() + ")";
    const detail = overcommittable(name)
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
  for (let i = 0; i < requests.names.length; i++) {
    const name = requests.names[i];
    if (requests.texts[i] === null || overcommittable(name) || indexOf(block.limits.names, name) >= 0) continue;
    if (errs.full) {
      errs.omit();
      continue;
    }
    // a value with a text parses (the others were reported where they were read)
    const requested = requests.quantity(i);
    errs.add(
      invalidString(
        requestsPath.key(name),
        requested !== null ? requested.toString() : "",
        goQuote(name) +
          " is a non-overcommittable resource — it must also be set in " +
          block.label +
          ".limits with the same value (hugepages and extended resources require requests and limits to be declared together)",
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
  for (let i = 0; i < map.names.length; i++) {
    const name = map.names[i];
    const text = map.texts[i];
    // whether the rule rejects the entry, decided without building the violation; a quantity is
    // parsed only when more than digits (digits are a whole, non-negative number)
    let q: Quantity | null = null;
    let size: Quantity | null = null;
    let problem = "";
    if (rule == 13) {
      if (text === null || isPlainInteger(text)) continue;
      q = map.quantity(i);
      if (q === null || q.sign() >= 0) continue;
    } else {
      problem = nameProblem(map, i);
      if (rule == 15) {
        if (problem.length == 0) continue;
      } else {
        if (text === null || problem.length > 0) continue;
        if (rule == 16) {
          if (isPlainInteger(text) || name.indexOf("/") < 0) continue;
          q = map.quantity(i);
          if (q === null || q.isInteger()) continue;
        } else {
          size = hugePageSize(name);
          if (size === null) continue;
          q = map.quantity(i);
          if (q === null || isMultipleOf(q, size)) continue;
        }
      }
    }
    if (errs.full) {
      errs.omit(); // past the collection limit violations are only counted
      continue;
    }
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

/** resourceNameProblem of entry `i`, worked out once per map entry (rules 15-17 each ask). */
function nameProblem(map: QuantityMap, i: i32): string {
  let problem = unchecked(map.problems[i]);
  if (problem === null) {
    problem = resourceNameProblem(unchecked(map.names[i]));
    unchecked((map.problems[i] = problem));
  }
  return problem;
}

// 14: lmCache.hostMemory.capacity must be positive
export function checkHostMemoryCapacity(b: Backend, errs: FieldErrorList): void {
  const capacity = b.hostMemoryCapacity;
  if (capacity === null || capacity.sign() > 0) return;
  const path = b.hostMemoryPath;
  errs.add(invalidString(path, capacity.toString(), "must be greater than zero"));
}
