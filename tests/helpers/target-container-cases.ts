// Cases of the shared target-container rule that both pod injectors' generators write: a container
// that cannot be read before the named one makes the request unreadable (`invalid-request`), not
// the named container missing (`target-container-not-found`); both are skips, the reason tells
// them apart (docs/policies/lmcache-injector.md#target-container and
// docs/policies/cacheblend-injector.md#target-container).
export interface UnreadableContainerCase {
  name: string;
  description: string;
  /** put before the pod's containers */
  before: unknown;
  message: string;
}

export const UNREADABLE_CONTAINER_BEFORE_TARGET: readonly UnreadableContainerCase[] = [
  {
    name: "malformed-container-before-named",
    description: "containers [3, {name: vllm}], annotation vllm: invalid-request, not target-container-not-found",
    before: 3,
    message: "request could not be read: spec.containers[0] is not an object",
  },
  {
    name: "container-name-not-string-before-named",
    description: "containers [{name: 7}, {name: vllm}], annotation vllm: invalid-request",
    before: { name: 7, image: "busybox:1.36" },
    message: "request could not be read: spec.containers[0].name is not a string",
  },
];
