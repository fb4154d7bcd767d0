// The Pod Security Standards `baseline` level, in process: what a namespace enforcing `baseline`
// refuses in a pod. Product code: `preview` says with it which wired pod a namespace's enforced
// level would refuse, where no API server can be asked. The API server is the authority: the test
// suite puts every pod its real kube-apiserver judges at `baseline` to this check too, and fails on
// any disagreement (tests/helpers/apiserver.ts, IN_PROCESS; tests/apiserver.test.ts probes every
// check below on both sides).

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `value` when it is a list, else none (malformed pods are checked too, and must not throw) */
const list = (value: unknown): J[] => (Array.isArray(value) ? value : []);

/** Capabilities a `baseline` container may add. */
const BASELINE_CAPABILITIES = new Set([
  "AUDIT_WRITE",
  "CHOWN",
  "DAC_OVERRIDE",
  "FOWNER",
  "FSETID",
  "KILL",
  "MKNOD",
  "NET_BIND_SERVICE",
  "SETFCAP",
  "SETGID",
  "SETPCAP",
  "SETUID",
  "SYS_CHROOT",
]);

/** Sysctls a `baseline` pod may set (the safe set of the latest policy version). */
const SAFE_SYSCTLS = new Set([
  "kernel.shm_rmid_forced",
  "net.ipv4.ip_local_port_range",
  "net.ipv4.ip_unprivileged_port_start",
  "net.ipv4.tcp_syncookies",
  "net.ipv4.ping_group_range",
  "net.ipv4.ip_local_reserved_ports",
  "net.ipv4.tcp_keepalive_time",
  "net.ipv4.tcp_fin_timeout",
  "net.ipv4.tcp_keepalive_intvl",
  "net.ipv4.tcp_keepalive_probes",
  "net.ipv4.tcp_rmem",
  "net.ipv4.tcp_wmem",
]);

/** SELinux types a `baseline` pod may ask for. */
const SELINUX_TYPES = new Set(["", "container_t", "container_init_t", "container_kvm_t", "container_engine_t"]);

/** The problems of one security context (pod or container level) by `baseline`, named `who`. */
function contextViolations(sc: J, who: string): string[] {
  const out: string[] = [];
  if (sc?.seccompProfile?.type === "Unconfined") out.push(`seccomp Unconfined (${who})`);
  if (sc?.appArmorProfile?.type === "Unconfined") out.push(`AppArmor Unconfined (${who})`);
  const se = sc?.seLinuxOptions;
  if (se && (!SELINUX_TYPES.has(se.type ?? "") || (se.user ?? "") !== "" || (se.role ?? "") !== ""))
    out.push(`SELinux options (${who})`);
  if (sc?.windowsOptions?.hostProcess === true) out.push(`hostProcess (${who})`);
  return out;
}

/** Every `baseline` violation of `pod`, as short texts (empty = the pod meets `baseline`). */
export function baselineViolations(pod: J): string[] {
  const spec = pod?.spec ?? {};
  const out: string[] = [];
  for (const f of ["hostIPC", "hostPID", "hostNetwork"]) if (spec[f] === true) out.push(`spec.${f}`);
  for (const v of list(spec.volumes)) if (v?.hostPath !== undefined) out.push(`hostPath volume ${v?.name}`);
  out.push(...contextViolations(spec.securityContext, "pod"));
  for (const s of list(spec.securityContext?.sysctls)) if (!SAFE_SYSCTLS.has(s?.name)) out.push(`sysctl ${s?.name}`);
  const annotations = pod?.metadata?.annotations ?? {};
  for (const [k, v] of Object.entries(annotations))
    if (
      k.startsWith("container.apparmor.security.beta.kubernetes.io/") &&
      v !== "runtime/default" &&
      !String(v).startsWith("localhost/")
    )
      out.push(`AppArmor annotation ${k}`);
  const all = [...list(spec.initContainers), ...list(spec.containers), ...list(spec.ephemeralContainers)];
  for (const c of all) {
    const sc = c?.securityContext ?? {};
    if (sc.privileged === true) out.push(`privileged container ${c?.name}`);
    for (const cap of list(sc.capabilities?.add))
      if (!BASELINE_CAPABILITIES.has(cap)) out.push(`capability ${cap} added to ${c?.name}`);
    for (const p of list(c?.ports)) if (p?.hostPort) out.push(`hostPort on ${c?.name}`);
    // a pod in its own user namespace (hostUsers: false) may unmask /proc
    if (sc.procMount !== undefined && sc.procMount !== "Default" && spec.hostUsers !== false)
      out.push(`procMount ${sc.procMount} on ${c?.name}`);
    out.push(...contextViolations(sc, `container ${c?.name}`));
  }
  return out;
}

/** The level a pod needs: `baseline` when it has no baseline violation, else `privileged`. */
export function neededLevel(pod: J): "baseline" | "privileged" {
  return baselineViolations(pod).length === 0 ? "baseline" : "privileged";
}
