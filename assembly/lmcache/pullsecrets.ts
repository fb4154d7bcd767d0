// Which image-pull secrets an injection adds (docs/policies/lmcache-injector.md#pull-secrets, D5):
// the override annotation, when non-blank, replaces the engine's `injection.imagePullSecrets`. The
// merge into the pod itself is the shared k8s edit (`mergePullSecrets`).
import { annotationOverTotalLimit } from "../k8s/annotations";
import { detailAnnotationOverTotalLimit, detailInvalidPullSecret } from "../keys/messages";
import { isDns1123Subdomain } from "../validate/dns";
import { isBlank } from "../validate/chars";
import { splitCommaList } from "../validate/lists";

export class PullSecretResolution {
  constructor(
    public names: string[],
    /** "" or the detail of the `invalid-image-pull-secrets` skip */
    public detail: string,
  ) {}
  get ok(): bool {
    return this.detail.length == 0;
  }
}

/**
 * `engineSecrets` are used as they are (no trimming or validation, as upstream) when the annotation
 * is blank, except that an empty name (`imagePullSecrets: [{}]`) is dropped: it names no Secret and
 * a pod must never carry `{"name": ""}` (docs/decisions.md, cacheblend-injector); otherwise the annotation's comma list replaces them and every listed name must be a
 * DNS-1123 subdomain (the first offender is reported). An annotation longer than Kubernetes allows
 * for all of a pod's annotations is not read: the API server refuses such a pod after admission
 * whatever the policy does (docs/decisions.md, "An annotation over Kubernetes' size limit").
 */
export function resolveInjectedPullSecrets(
  engineSecrets: string[],
  annotationValue: string,
  annotationKey: string = "",
): PullSecretResolution {
  if (isBlank(annotationValue)) {
    const kept = new Array<string>(0);
    for (let i = 0; i < engineSecrets.length; i++) {
      if (engineSecrets[i].length > 0) kept.push(engineSecrets[i]);
    }
    return new PullSecretResolution(kept, "");
  }
  if (annotationOverTotalLimit(annotationKey, annotationValue)) {
    return new PullSecretResolution([], detailAnnotationOverTotalLimit(annotationKey));
  }
  const names = splitCommaList(annotationValue);
  for (let i = 0; i < names.length; i++) {
    if (!isDns1123Subdomain(names[i])) return new PullSecretResolution(names, detailInvalidPullSecret(names[i]));
  }
  return new PullSecretResolution(names, "");
}
