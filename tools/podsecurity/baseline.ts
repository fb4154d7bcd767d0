// The Pod Security Standards `baseline` checks an injector's output can trip (host namespaces,
// hostPath volumes, privileged containers, added capabilities, host ports). Product code: the
// injectors' pod-security tests use it, and so can `preview` to say which wired pod a namespace's
// enforced level would refuse. Kept small on purpose: the injectors only add volumes, mounts, env,
// args, an init container and `spec.hostIPC`.

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `value` when it is a list, else none (malformed pods are checked too, and must not throw) */
const list = (value: unknown): J[] => (Array.isArray(value) ? value : []);

/** Every `baseline` violation of `pod`, as short texts (empty = the pod meets `baseline`). */
export function baselineViolations(pod: J): string[] {
  const spec = pod?.spec ?? {};
  const out: string[] = [];
  for (const f of ["hostIPC", "hostPID", "hostNetwork"]) if (spec[f] === true) out.push(`spec.${f}`);
  for (const v of list(spec.volumes)) if (v?.hostPath !== undefined) out.push(`hostPath volume ${v?.name}`);
  const all = [...list(spec.initContainers), ...list(spec.containers), ...list(spec.ephemeralContainers)];
  for (const c of all) {
    const sc = c?.securityContext ?? {};
    if (sc.privileged === true) out.push(`privileged container ${c?.name}`);
    if (list(sc.capabilities?.add).length > 0) out.push(`capabilities added to ${c?.name}`);
    for (const p of list(c?.ports)) if (p?.hostPort) out.push(`hostPort on ${c?.name}`);
  }
  return out;
}

/** The level a pod needs: `baseline` when it has no baseline violation, else `privileged`. */
export function neededLevel(pod: J): "baseline" | "privileged" {
  return baselineViolations(pod).length === 0 ? "baseline" : "privileged";
}
