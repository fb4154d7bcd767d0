// Payload staging (docs/policies/lmcache-injector.md#staging, D6, X2/X3): deciding whether and what
// to stage from an engine's `payloadImage`, and the edits that stage it. The image rules themselves
// live in ./image.ts; the fixed names come from the injector's `EngineKeys`.
import { JsonValue } from "../json/index";
import { Plan } from "../k8s/edits";
import { emptyDirVolume, simpleInitContainer, volumeMount } from "../k8s/lists";
import { containerAt } from "../k8s/containers";
import { envVar } from "../k8s/env";
import {
  DETAIL_PAYLOAD_IMAGE_FOOTGUN,
  detailPayloadImagePartInvalid,
  detailPullPolicyInvalid,
  detailRepositoryHasTag,
  detailStagingMountConflict,
  EngineKeys,
  PYTHONPATH_ENV,
  SHARED_DIR_ENV,
} from "../keys/index";
import {
  checkPayloadRepository,
  effectivePullPolicy,
  isUsablePayloadTag,
  isValidPullPolicy,
  payloadImageRef,
  pullPoliciesText,
  RepositoryCheck,
} from "./image";
import { PayloadImage } from "./injection";

export enum PayloadOutcome {
  /** no usable repository: LMCache stages nothing, CacheBlend skips `payload-image-unset` */
  NoImage = 0,
  /** stage `ref` with `pullPolicy` */
  Stage = 1,
  /** skip `payload-image-invalid` with `detail` */
  Invalid = 2,
}

export class PayloadDecision {
  constructor(
    public outcome: PayloadOutcome,
    public ref: string,
    public pullPolicy: string,
    public detail: string,
  ) {}
  get stages(): bool {
    return this.outcome == PayloadOutcome.Stage;
  }
}

function invalid(detail: string): PayloadDecision {
  return new PayloadDecision(PayloadOutcome.Invalid, "", "", detail);
}

/** upstream `resolvePayloadImage` plus the D6 / X2 / X3 guards, checked in that order. */
export function decidePayload(image: PayloadImage | null): PayloadDecision {
  if (image === null) return new PayloadDecision(PayloadOutcome.NoImage, "", "", "");
  const check = checkPayloadRepository(image.repository);
  if (check == RepositoryCheck.Unset) return new PayloadDecision(PayloadOutcome.NoImage, "", "", "");
  if (check == RepositoryCheck.ImageSpecDefault) return invalid(DETAIL_PAYLOAD_IMAGE_FOOTGUN);
  if (check == RepositoryCheck.TagInRepository) return invalid(detailRepositoryHasTag(image.repository));
  if (check != RepositoryCheck.Ok) return invalid(detailPayloadImagePartInvalid("repository"));
  if (!isUsablePayloadTag(image.tag)) return invalid(detailPayloadImagePartInvalid("tag"));
  const pullPolicy = effectivePullPolicy(image.pullPolicy);
  if (!isValidPullPolicy(pullPolicy)) return invalid(detailPullPolicyInvalid(pullPolicy, pullPoliciesText()));
  return new PayloadDecision(PayloadOutcome.Stage, payloadImageRef(image.repository, image.tag), pullPolicy, "");
}

/** The staging init container: no command, args or resources — the payload image's entrypoint
 *  copies its files into `$SHARED_DIR`; its own mount is read-write. */
export function stagingInitContainer(keys: EngineKeys, ref: string, pullPolicy: string): JsonValue {
  return simpleInitContainer(
    keys.payloadInitContainer,
    ref,
    [envVar(SHARED_DIR_ENV, keys.payloadMountPath)],
    [volumeMount(keys.payloadVolume, keys.payloadMountPath, false)],
    pullPolicy,
  );
}

/** In the Go webhook's order: emptyDir volume, init container, read-only mount on the target,
 *  PYTHONPATH prepend. Every append is "if absent by name". Pull secrets are added by the caller. */
export function addStagingEdits(plan: Plan, target: i32, keys: EngineKeys, decision: PayloadDecision): void {
  plan.appendToPodListIfAbsent("volumes", emptyDirVolume(keys.payloadVolume));
  plan.appendToPodListIfAbsent("initContainers", stagingInitContainer(keys, decision.ref, decision.pullPolicy));
  plan.appendToContainerListIfAbsent(
    target,
    "volumeMounts",
    volumeMount(keys.payloadVolume, keys.payloadMountPath, true),
  );
  plan.envPrependPath(target, PYTHONPATH_ENV, keys.payloadMountPath);
}

/**
 * Whether staging would silently not work on this pod (docs/decisions.md#staging-conflicts): on the
 * target container, a mount of the staging volume at another path, or of another volume at the
 * staging path. Mounts are appended "if absent by name", so the user's would be kept and PYTHONPATH
 * would point at a path where the staged files are not. A volume of the staging name is kept as the
 * spec says (the user may provide it). Returns the skip detail, or "" when staging can go ahead.
 */
export function stagingConflict(pod: JsonValue, target: i32, containerName: string, keys: EngineKeys): string {
  const container = containerAt(pod, target);
  if (container === null) return "";
  const mounts = container.getPresent("volumeMounts");
  if (mounts === null || !mounts.isArray()) return "";
  const n = mounts.size();
  for (let i = 0; i < n; i++) {
    const m = mounts.at(i);
    if (m === null || !m.isObject()) continue;
    const name = m.stringOrNull("name");
    const path = m.stringOrNull("mountPath");
    if (name === null || path === null) continue;
    if ((name == keys.payloadVolume) != (path == keys.payloadMountPath)) {
      return detailStagingMountConflict(containerName, name, path);
    }
  }
  return "";
}
