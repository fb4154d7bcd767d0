// Which image-pull secrets an injection adds (docs/policies/lmcache-injector.md#pull-secrets, D5):
// the override annotation, when non-blank, replaces the engine's `injection.imagePullSecrets`. The
// merge into the pod itself is the shared k8s edit (`mergePullSecrets`).
import { isDns1123Subdomain } from "../validate/dns";
import { isBlank } from "../validate/chars";
import { splitCommaList } from "../validate/lists";

export class PullSecretResolution {
  constructor(
    public names: string[],
    public invalidName: string,
  ) {}
  /** false → skip `invalid-image-pull-secrets` naming `invalidName` */
  get ok(): bool {
    return this.invalidName.length == 0;
  }
}

/**
 * `engineSecrets` are used as they are (no trimming or validation, as upstream) when the annotation
 * is blank, except that an empty name (`imagePullSecrets: [{}]`) is dropped: it names no Secret and
 * a pod must never carry `{"name": ""}` (docs/decisions.md, cacheblend-injector); otherwise the annotation's comma list replaces them and every listed name must be a
 * DNS-1123 subdomain (the first offender is reported).
 */
export function resolveInjectedPullSecrets(engineSecrets: string[], annotationValue: string): PullSecretResolution {
  if (isBlank(annotationValue)) {
    const kept = new Array<string>(0);
    for (let i = 0; i < engineSecrets.length; i++) {
      if (engineSecrets[i].length > 0) kept.push(engineSecrets[i]);
    }
    return new PullSecretResolution(kept, "");
  }
  const names = splitCommaList(annotationValue);
  for (let i = 0; i < names.length; i++) {
    if (!isDns1123Subdomain(names[i])) return new PullSecretResolution(names, names[i]);
  }
  return new PullSecretResolution(names, "");
}
