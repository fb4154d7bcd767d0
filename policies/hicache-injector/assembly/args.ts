// The HiCache argument plan (docs/policies/hicache-injector.md#arguments): the desired flags in
// their order, the conflict rules A1–A8 against the engine container's args, and the tokens to
// append. Pure over string[]: the caller turns the tokens into one append edit.
import { JsonValue } from "../../../assembly/json/index";
import {
  argValues,
  argsReadBy,
  containerArgs,
  countExactFlag,
  hasExactFlag,
  hasFlag,
  hasFlagWithEquals,
} from "../../../assembly/k8s/index";
import {
  HICACHE_FLAG_ENABLE,
  HICACHE_FLAG_IO_BACKEND,
  HICACHE_FLAG_MEM_LAYOUT,
  HICACHE_FLAG_RATIO,
  HICACHE_FLAG_SIZE,
  HICACHE_FLAG_STORAGE_BACKEND,
  HICACHE_FLAG_STORAGE_PREFETCH_POLICY,
  HICACHE_FLAG_WRITE_POLICY,
  HICACHE_STORAGE_BACKEND_FILE,
  SGLANG_FLAG_ENABLE_LMCACHE,
  SGLANG_FLAG_LMCACHE_CONFIG_FILE,
  hicacheConflictingLmcacheFlags,
  hicacheValueFlags,
} from "../../../assembly/keys/index";
import { parseGoFloat, parseGoInt, shortenRendered } from "../../../assembly/validate/index";
import { HiCacheBackend, sizeText } from "./backend";

// @ts-ignore: decorator
@lazy
export const INJECT = "inject SGLang HiCache config: ";

/** One desired `flag value` pair. */
export class DesiredFlag {
  constructor(
    public flag: string,
    public value: string,
  ) {}
}

/** The value flags the backend asks for, in the order they are written (#desired-flags). */
export function desiredValueFlags(b: HiCacheBackend): DesiredFlag[] {
  const out = new Array<DesiredFlag>(0);
  if (b.hasSize) out.push(new DesiredFlag(HICACHE_FLAG_SIZE, sizeText(b)));
  else out.push(new DesiredFlag(HICACHE_FLAG_RATIO, b.ratio));
  if (b.writePolicy.length > 0) out.push(new DesiredFlag(HICACHE_FLAG_WRITE_POLICY, b.writePolicy));
  if (b.ioBackend.length > 0) out.push(new DesiredFlag(HICACHE_FLAG_IO_BACKEND, b.ioBackend));
  if (b.memoryLayout.length > 0) out.push(new DesiredFlag(HICACHE_FLAG_MEM_LAYOUT, b.memoryLayout));
  if (b.isNfs) {
    out.push(new DesiredFlag(HICACHE_FLAG_STORAGE_BACKEND, HICACHE_STORAGE_BACKEND_FILE));
    out.push(new DesiredFlag(HICACHE_FLAG_STORAGE_PREFETCH_POLICY, b.prefetchPolicy));
  }
  return out;
}

/** Whether an existing value is equivalent to the desired one (size: Go int64; ratio: finite Go
 *  float; others: the same text). */
export function equivalentValue(flag: string, have: string, want: string): bool {
  if (flag == HICACHE_FLAG_SIZE) {
    const a = parseGoInt(have, 64);
    const b = parseGoInt(want, 64);
    return a.ok && b.ok && a.value == b.value;
  }
  if (flag == HICACHE_FLAG_RATIO) {
    const a = parseGoFloat(have);
    const b = parseGoFloat(want);
    return a.ok && b.ok && a.finite && b.finite && a.value == b.value;
  }
  return have == want;
}

/** Either the tokens to append, or the conflict that stops the injection. */
export class ArgPlan {
  constructor(
    public ok: bool,
    public tokens: string[],
    public conflict: string,
  ) {}
  static conflict(detail: string): ArgPlan {
    return new ArgPlan(false, new Array<string>(0), INJECT + detail);
  }
}

// @ts-ignore: decorator
@lazy
const HICACHE_ARGS_PREFIX = "--hicache-";

/** The engine container's args as the rules of steps 11, 12 and 15 read them: null when they are
 *  not an array of strings, [] when unset. Without engineOverrides args (step 15 reads every flag)
 *  only the items the HiCache and LMCache flags read are decoded (k8s `argsReadBy`): a container
 *  with 50,000 args had each decoded and scanned once per flag. */
export function engineArgs(container: JsonValue, b: HiCacheBackend): string[] | null {
  if (b.overrideArgs.length > 0) return containerArgs(container);
  const args = container.getPresent("args");
  if (args === null) return new Array<string>(0);
  // the rules' flags (their order does not matter: argsReadBy only asks whether an item is one)
  const flags = hicacheValueFlags();
  flags.push(SGLANG_FLAG_ENABLE_LMCACHE);
  flags.push(SGLANG_FLAG_LMCACHE_CONFIG_FILE);
  flags.push(HICACHE_FLAG_ENABLE);
  // every value flag starts with `--hicache-`
  const prefixes = [
    SGLANG_FLAG_ENABLE_LMCACHE,
    SGLANG_FLAG_LMCACHE_CONFIG_FILE,
    HICACHE_FLAG_ENABLE,
    HICACHE_ARGS_PREFIX,
  ];
  return argsReadBy(args, prefixes, flags);
}

/** Step 11: the engine already runs SGLang's LMCache integration. */
export function hasLmcacheArgs(args: string[]): bool {
  const flags = hicacheConflictingLmcacheFlags();
  for (let i = 0; i < flags.length; i++) if (hasFlag(args, flags[i])) return true;
  return false;
}

export function lmcacheArgsDetail(): string {
  return INJECT + "native HiCache conflicts with SGLang LMCache arguments";
}

function duplicatedOrMalformed(flag: string): ArgPlan {
  return ArgPlan.conflict(flag + " is duplicated or malformed");
}

/** Rules A1–A8 in order, then the tokens to append (#conflict-rules, #commit). */
export function planArgs(args: string[], b: HiCacheBackend): ArgPlan {
  // A1, A2
  if (hasFlagWithEquals(args, HICACHE_FLAG_ENABLE))
    return ArgPlan.conflict(HICACHE_FLAG_ENABLE + " is a boolean flag and must not carry a value");
  if (countExactFlag(args, HICACHE_FLAG_ENABLE) > 1) return ArgPlan.conflict(HICACHE_FLAG_ENABLE + " is duplicated");
  // A3: the single-valued optional flags, whether or not the spec sets them
  const single = [
    HICACHE_FLAG_WRITE_POLICY,
    HICACHE_FLAG_IO_BACKEND,
    HICACHE_FLAG_MEM_LAYOUT,
    HICACHE_FLAG_STORAGE_BACKEND,
    HICACHE_FLAG_STORAGE_PREFETCH_POLICY,
  ];
  for (let i = 0; i < single.length; i++) {
    const v = argValues(args, single[i]);
    if (v.malformed > 0 || v.values.length > 1) return duplicatedOrMalformed(single[i]);
  }
  // A4, A5: size and ratio exclude each other
  const other = b.hasSize ? HICACHE_FLAG_RATIO : HICACHE_FLAG_SIZE;
  const otherValues = argValues(args, other);
  if (otherValues.malformed > 0) return ArgPlan.conflict(other + " is malformed");
  if (otherValues.values.length > 0)
    return ArgPlan.conflict("existing " + other + " conflicts with spec.hiCache." + (b.hasSize ? "sizeGB" : "ratio"));
  // A6
  if (!b.isNfs) {
    const nfsOnly = [HICACHE_FLAG_STORAGE_BACKEND, HICACHE_FLAG_STORAGE_PREFETCH_POLICY];
    for (let i = 0; i < nfsOnly.length; i++) {
      if (hasFlag(args, nfsOnly[i]))
        return ArgPlan.conflict("existing " + nfsOnly[i] + " requires remoteStorage.provider=NFS");
    }
  }
  // A7, A8, and the tokens for what is missing
  const desired = desiredValueFlags(b);
  const tokens = new Array<string>(0);
  if (!hasExactFlag(args, HICACHE_FLAG_ENABLE)) tokens.push(HICACHE_FLAG_ENABLE);
  for (let i = 0; i < desired.length; i++) {
    const d = desired[i];
    const v = argValues(args, d.flag);
    if (v.malformed > 0 || v.values.length > 1) return duplicatedOrMalformed(d.flag);
    if (v.values.length == 1) {
      const have = v.values[0];
      if (!equivalentValue(d.flag, have, d.value))
        return ArgPlan.conflict(
          "existing " +
            d.flag +
            '="' +
            shortenRendered(have) +
            '" conflicts with desired value "' +
            shortenRendered(d.value) +
            '"',
        );
      continue;
    }
    tokens.push(d.flag);
    tokens.push(d.value);
  }
  return new ArgPlan(true, tokens, "");
}

/** A `-`-prefixed token's flag (the text before `=`), or null for a positional token. */
export function flagOf(token: string): string | null {
  if (!token.startsWith("-")) return null;
  const eq = token.indexOf("=");
  return eq >= 0 ? token.substring(0, eq) : token;
}

/** The non-reserved engineOverrides.args to append (#engineoverrides): units whose flag the user
 *  already passes are dropped; positional entries are always appended. */
export function overrideArgTokens(pre: string[], overrideArgs: string[]): string[] {
  if (overrideArgs.length == 0) return overrideArgs; // the common case: no pass over the pod's args
  const owned = new Array<string>(0);
  for (let i = 0; i < pre.length; i++) {
    const f = flagOf(pre[i]);
    if (f !== null) owned.push(f);
  }
  const out = new Array<string>(0);
  let i = 0;
  while (i < overrideArgs.length) {
    const t = overrideArgs[i];
    const f = flagOf(t);
    let width = 1;
    if (f !== null && t.indexOf("=") < 0 && i + 1 < overrideArgs.length && !overrideArgs[i + 1].startsWith("-"))
      width = 2;
    if (f === null || owned.indexOf(f) < 0) {
      for (let k = 0; k < width; k++) out.push(overrideArgs[i + k]);
    }
    i += width;
  }
  return out;
}
