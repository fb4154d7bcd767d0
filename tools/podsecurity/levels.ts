// The Pod Security Standards' `baseline` and `restricted` levels as the API server's Pod Security
// admission checks them (k8s.io/pod-security-admission/policy: one check per control, each from the
// minor version that introduced it). Product code: `preview` uses it to say which wired pod a
// namespace's `pod-security.kubernetes.io/enforce` label would refuse, the injectors' tests to hold
// each README's level table, and the suite's real API server is the oracle it is compared with.
// Every control of both levels is here (a wired pod can carry anything the user wrote); Windows pods
// are exempt from the Linux-only restricted controls from v1.25, as upstream does.

type J = any; // eslint-disable-line @typescript-eslint/no-explicit-any

export const LEVELS = ["privileged", "baseline", "restricted"] as const;
export type Level = (typeof LEVELS)[number];

/** `latest`, or a pinned `v1.<minor>` (`pod-security.kubernetes.io/enforce-version`). */
export type PolicyVersion = "latest" | { major: number; minor: number };

export interface Violation {
  /** upstream's check id, e.g. `hostNamespaces` */
  check: string;
  /** upstream's short reason, e.g. `host namespaces` */
  reason: string;
  detail: string;
}

const list = (value: unknown): J[] => (Array.isArray(value) ? value : []);
const q = (s: unknown): string => JSON.stringify(String(s));
const names = (cs: J[]): string => cs.map((c) => q(c?.name)).join(", ");
const plural = (n: number, one: string, many: string): string => (n === 1 ? one : many);

/** Every container of the pod: init, regular and ephemeral (upstream's visitContainers). */
function containers(spec: J): J[] {
  return [...list(spec?.initContainers), ...list(spec?.containers), ...list(spec?.ephemeralContainers)];
}

/** `container "a"`, `containers "a", "b"`: how upstream names the containers at fault. */
const containerList = (cs: J[]): string => `${plural(cs.length, "container", "containers")} ${names(cs)}`;

/** Who sets a forbidden securityContext value: `pod`, `containers "a", "b"`, or both (empty: nobody). */
function setters(spec: J, bad: (securityContext: J) => boolean): string[] {
  const out: string[] = [];
  if (bad(spec?.securityContext ?? {})) out.push("pod");
  const who = containers(spec).filter((c) => bad(c?.securityContext ?? {}));
  if (who.length) out.push(containerList(who));
  return out;
}

const atLeast = (v: PolicyVersion, minor: number): boolean => v === "latest" || v.major > 1 || v.minor >= minor;

/** From v1.35, a pod in its own user namespace (`hostUsers: false`) is relaxed from the procMount
 *  (baseline), runAsNonRoot and runAsUser controls (upstream's relaxPolicyForUserNamespacePod). */
const userNamespaceRelaxed = (spec: J, v: PolicyVersion): boolean => atLeast(v, 35) && spec?.hostUsers === false;

/** Containers that set a procMount other than `Default` (the procMount controls of both levels). */
function unmaskedProcMount(spec: J): { reason: string; detail: string } | null {
  const types = new Set<string>();
  const who = containers(spec).filter((c) => {
    const pm = c?.securityContext?.procMount;
    if (pm === undefined || pm === null || pm === "Default") return false;
    types.add(String(pm));
    return true;
  });
  return who.length
    ? {
        reason: "procMount",
        detail: `${containerList(who)} must not set securityContext.procMount to ${[...types].sort().map(q).join(", ")}`,
      }
    : null;
}

interface Check {
  id: string;
  level: "baseline" | "restricted";
  /** the minor version of 1.x the check applies from */
  since: number;
  /** true for the restricted controls Windows pods are exempt from (v1.25+) */
  linuxOnly?: boolean;
  /** the baseline check this restricted one replaces at the restricted level (upstream's OverrideCheckIDs) */
  overrides?: string;
  /** the reason and detail when the pod fails, else null */
  run: (spec: J, meta: J, v: PolicyVersion) => { reason: string; detail: string } | null;
}

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
const SELINUX_TYPES = new Set(["", "container_t", "container_init_t", "container_kvm_t", "container_engine_t"]);
/** The safe sysctls and the minor version each became allowed in. */
const SYSCTLS: [string, number][] = [
  ["kernel.shm_rmid_forced", 0],
  ["net.ipv4.ip_local_port_range", 0],
  ["net.ipv4.tcp_syncookies", 0],
  ["net.ipv4.ping_group_range", 0],
  ["net.ipv4.ip_unprivileged_port_start", 0],
  ["net.ipv4.ip_local_reserved_ports", 27],
  ["net.ipv4.tcp_keepalive_time", 29],
  ["net.ipv4.tcp_fin_timeout", 29],
  ["net.ipv4.tcp_keepalive_intvl", 29],
  ["net.ipv4.tcp_keepalive_probes", 29],
];
const RESTRICTED_VOLUMES = new Set([
  "configMap",
  "csi",
  "downwardAPI",
  "emptyDir",
  "ephemeral",
  "persistentVolumeClaim",
  "projected",
  "secret",
]);
const APPARMOR_ANNOTATION = "container.apparmor.security.beta.kubernetes.io/";

const appArmorOk = (value: unknown): boolean =>
  value === undefined ||
  value === "" ||
  value === "runtime/default" ||
  (typeof value === "string" && value.startsWith("localhost/"));
/** upstream's joinQuote: each item between plain quotes, nothing escaped */
const joinQuote = (items: string[]): string => (items.length ? `"${items.join('", "')}"` : "");

const CHECKS: Check[] = [
  {
    id: "windowsHostProcess",
    level: "baseline",
    since: 0,
    run: (spec) => {
      const bad = containers(spec).filter((c) => c?.securityContext?.windowsOptions?.hostProcess === true);
      const pod = spec?.securityContext?.windowsOptions?.hostProcess === true;
      if (!pod && bad.length === 0) return null;
      return {
        reason: "hostProcess",
        detail:
          [pod ? "pod" : "", bad.length ? names(bad) : ""].filter(Boolean).join(" and ") +
          " must not set securityContext.windowsOptions.hostProcess=true",
      };
    },
  },
  {
    id: "hostNamespaces",
    level: "baseline",
    since: 0,
    run: (spec) => {
      const set = ["hostNetwork", "hostPID", "hostIPC"].filter((f) => spec?.[f] === true);
      return set.length ? { reason: "host namespaces", detail: set.map((f) => `${f}=true`).join(", ") } : null;
    },
  },
  {
    id: "privileged",
    level: "baseline",
    since: 0,
    run: (spec) => {
      const bad = containers(spec).filter((c) => c?.securityContext?.privileged === true);
      return bad.length
        ? {
            reason: "privileged",
            detail: `${containerList(bad)} must not set securityContext.privileged=true`,
          }
        : null;
    },
  },
  {
    id: "capabilities_baseline",
    level: "baseline",
    since: 0,
    run: (spec) => {
      const bad = new Set<string>();
      const who = containers(spec).filter((c) => {
        const extra = list(c?.securityContext?.capabilities?.add).filter(
          (cap) => !BASELINE_CAPABILITIES.has(String(cap)),
        );
        extra.forEach((cap) => bad.add(String(cap)));
        return extra.length > 0;
      });
      return who.length
        ? {
            reason: "non-default capabilities",
            detail: `${containerList(who)} must not include ${[...bad].map(q).join(", ")} in securityContext.capabilities.add`,
          }
        : null;
    },
  },
  {
    id: "hostPathVolumes",
    level: "baseline",
    since: 0,
    run: (spec) => {
      const bad = list(spec?.volumes).filter((v) => v?.hostPath !== undefined && v?.hostPath !== null);
      return bad.length
        ? { reason: "hostPath volumes", detail: `${plural(bad.length, "volume", "volumes")} ${names(bad)}` }
        : null;
    },
  },
  {
    id: "hostPorts",
    level: "baseline",
    since: 0,
    run: (spec) => {
      const found = new Set<string>();
      const who = containers(spec).filter((c) => {
        const used = list(c?.ports).filter((p) => typeof p?.hostPort === "number" && p.hostPort !== 0);
        used.forEach((p) => found.add(String(p.hostPort)));
        return used.length > 0;
      });
      // upstream lists each port once, sorted as text
      const ports = [...found].sort();
      return who.length
        ? {
            reason: "hostPort",
            detail: `${containerList(who)} ${plural(who.length, "uses", "use")} ${plural(ports.length, "hostPort", "hostPorts")} ${ports.join(", ")}`,
          }
        : null;
    },
  },
  {
    id: "appArmorProfile",
    level: "baseline",
    since: 0,
    run: (spec, meta) => {
      const values = new Set<string>();
      // a profile type other than RuntimeDefault or Localhost, on the pod or a container
      const badType = (sc: J): boolean => {
        const p = sc?.appArmorProfile;
        if (p === undefined || p === null || p.type === "RuntimeDefault" || p.type === "Localhost") return false;
        values.add(String(p.type ?? ""));
        return true;
      };
      const setters: string[] = [];
      if (badType(spec?.securityContext)) setters.push("pod");
      const who = containers(spec).filter((c) => badType(c?.securityContext));
      if (who.length) setters.push(containerList(who));
      const annotations = Object.entries((meta?.annotations ?? {}) as Record<string, unknown>)
        .filter(([k, val]) => k.startsWith(APPARMOR_ANNOTATION) && !appArmorOk(val))
        .map(([k, val]) => `${k}=${q(val)}`)
        .sort();
      if (annotations.length) setters.push(plural(annotations.length, "annotation", "annotations"));
      if (!setters.length) return null;
      const list = [...[...values].sort(), ...annotations];
      return {
        reason: plural(list.length, "forbidden AppArmor profile", "forbidden AppArmor profiles"),
        detail: `${setters.join(" and ")} must not set AppArmor profile type to ${joinQuote(list)}`,
      };
    },
  },
  {
    id: "seLinuxOptions",
    level: "baseline",
    since: 0,
    run: (spec, _meta, v) => {
      // container_engine_t is allowed from v1.31
      const allowed = (t: string): boolean => SELINUX_TYPES.has(t) && (t !== "container_engine_t" || atLeast(v, 31));
      const badTypes = new Set<string>();
      let user = false;
      let role = false;
      const badOpts = (o: J): boolean => {
        if (o === undefined || o === null) return false;
        const t = String(o.type ?? "");
        if (!allowed(t)) badTypes.add(t);
        if (o.user) user = true;
        if (o.role) role = true;
        return !allowed(t) || !!o.user || !!o.role;
      };
      const who = setters(spec, (sc) => badOpts(sc.seLinuxOptions));
      if (!who.length) return null;
      const types = [...badTypes].sort();
      const data: string[] = [];
      if (types.length) data.push(`${plural(types.length, "type", "types")} ${types.map(q).join(", ")}`);
      if (user) data.push("user may not be set");
      if (role) data.push("role may not be set");
      return {
        reason: "seLinuxOptions",
        detail: `${who.join(" and ")} set forbidden securityContext.seLinuxOptions: ${data.join("; ")}`,
      };
    },
  },
  {
    id: "procMount",
    level: "baseline",
    since: 0,
    run: (spec, _meta, v) => (userNamespaceRelaxed(spec, v) ? null : unmaskedProcMount(spec)),
  },
  {
    // from v1.35 restricted keeps the unconditional check that baseline relaxed for user namespaces
    id: "procMount_restricted",
    level: "restricted",
    since: 35,
    overrides: "procMount",
    run: (spec) => unmaskedProcMount(spec),
  },
  {
    id: "seccompProfile_baseline",
    level: "baseline",
    since: 19,
    run: (spec) => {
      const who = setters(spec, (sc) => sc.seccompProfile?.type === "Unconfined");
      return who.length
        ? {
            reason: "seccompProfile",
            detail: `${who.join(" and ")} must not set securityContext.seccompProfile.type to "Unconfined"`,
          }
        : null;
    },
  },
  {
    id: "sysctls",
    level: "baseline",
    since: 0,
    run: (spec, _meta, v) => {
      const allowed = new Set(SYSCTLS.filter(([, minor]) => atLeast(v, minor)).map(([n]) => n));
      const bad = list(spec?.securityContext?.sysctls)
        .map((s) => String(s?.name))
        .filter((n) => !allowed.has(n));
      return bad.length ? { reason: "forbidden sysctls", detail: bad.join(", ") } : null;
    },
  },
  {
    id: "hostProbesAndHostLifecycle",
    level: "baseline",
    since: 34,
    run: (spec) => {
      const hosts = new Set<string>();
      const who = containers(spec).filter((c) => {
        const handlers = [
          c?.livenessProbe,
          c?.readinessProbe,
          c?.startupProbe,
          c?.lifecycle?.postStart,
          c?.lifecycle?.preStop,
        ];
        const found = handlers
          .flatMap((h) => [h?.httpGet?.host, h?.tcpSocket?.host])
          .filter((h) => typeof h === "string" && h !== "");
        found.forEach((h) => hosts.add(h));
        return found.length > 0;
      });
      return who.length
        ? {
            reason: "probe or lifecycle host",
            detail: `${containerList(who)} use hosts ${[...hosts].map(q).join(", ")}`,
          }
        : null;
    },
  },
  {
    id: "restrictedVolumes",
    level: "restricted",
    overrides: "hostPathVolumes",
    since: 0,
    run: (spec) => {
      const bad = list(spec?.volumes).filter((vol) => {
        const types = Object.keys(vol ?? {}).filter((k) => k !== "name");
        return types.some((t) => !RESTRICTED_VOLUMES.has(t));
      });
      if (!bad.length) return null;
      const types = [
        ...new Set(
          bad.flatMap((vol) => Object.keys(vol ?? {}).filter((k) => k !== "name" && !RESTRICTED_VOLUMES.has(k))),
        ),
      ];
      return {
        reason: "restricted volume types",
        detail: `${plural(bad.length, "volume", "volumes")} ${names(bad)} ${plural(bad.length, "uses", "use")} restricted volume ${plural(types.length, "type", "types")} ${types.map(q).join(", ")}`,
      };
    },
  },
  {
    id: "allowPrivilegeEscalation",
    level: "restricted",
    since: 8,
    linuxOnly: true,
    run: (spec) => {
      const who = containers(spec).filter((c) => c?.securityContext?.allowPrivilegeEscalation !== false);
      return who.length
        ? {
            reason: "allowPrivilegeEscalation != false",
            detail: `${containerList(who)} must set securityContext.allowPrivilegeEscalation=false`,
          }
        : null;
    },
  },
  {
    id: "runAsNonRoot",
    level: "restricted",
    since: 0,
    linuxOnly: true,
    run: (spec, _meta, v) => {
      if (userNamespaceRelaxed(spec, v)) return null;
      const pod = spec?.securityContext?.runAsNonRoot;
      const explicitFalse = containers(spec).filter((c) => c?.securityContext?.runAsNonRoot === false);
      const unset = containers(spec).filter(
        (c) => c?.securityContext?.runAsNonRoot === undefined || c?.securityContext?.runAsNonRoot === null,
      );
      const parts: string[] = [];
      if (pod === false) parts.push("pod must not set securityContext.runAsNonRoot=false");
      if (explicitFalse.length)
        parts.push(`${containerList(explicitFalse)} must not set securityContext.runAsNonRoot=false`);
      if (pod !== true && unset.length)
        parts.push(`pod or ${containerList(unset)} must set securityContext.runAsNonRoot=true`);
      return parts.length ? { reason: "runAsNonRoot != true", detail: parts.join("; ") } : null;
    },
  },
  {
    id: "runAsUser",
    level: "restricted",
    since: 23,
    linuxOnly: true,
    run: (spec, _meta, v) => {
      if (userNamespaceRelaxed(spec, v)) return null;
      const who = setters(spec, (sc) => sc.runAsUser === 0);
      return who.length ? { reason: "runAsUser=0", detail: `${who.join(" and ")} must not set runAsUser=0` } : null;
    },
  },
  {
    id: "seccompProfile_restricted",
    level: "restricted",
    overrides: "seccompProfile_baseline",
    since: 19,
    linuxOnly: true,
    run: (spec) => {
      const ok = (t: unknown): boolean => t === "RuntimeDefault" || t === "Localhost";
      const podType = spec?.securityContext?.seccompProfile?.type;
      const parts: string[] = [];
      if (podType !== undefined && podType !== null && !ok(podType))
        parts.push(`pod must not set securityContext.seccompProfile.type to ${q(podType)}`);
      const badSet = containers(spec).filter((c) => {
        const t = c?.securityContext?.seccompProfile?.type;
        return t !== undefined && t !== null && !ok(t);
      });
      if (badSet.length)
        parts.push(
          `${containerList(badSet)} must not set securityContext.seccompProfile.type to a value other than "RuntimeDefault" or "Localhost"`,
        );
      if (!ok(podType)) {
        const unset = containers(spec).filter((c) => {
          const t = c?.securityContext?.seccompProfile?.type;
          return t === undefined || t === null;
        });
        if (unset.length)
          parts.push(
            `pod or ${containerList(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
          );
      }
      return parts.length ? { reason: "seccompProfile", detail: parts.join("; ") } : null;
    },
  },
  {
    id: "capabilities_restricted",
    level: "restricted",
    overrides: "capabilities_baseline",
    since: 22,
    linuxOnly: true,
    run: (spec) => {
      const parts: string[] = [];
      const noDrop = containers(spec).filter(
        (c) => !list(c?.securityContext?.capabilities?.drop).some((d) => d === "ALL"),
      );
      if (noDrop.length) parts.push(`${containerList(noDrop)} must set securityContext.capabilities.drop=["ALL"]`);
      const added = new Set<string>();
      const addWho = containers(spec).filter((c) => {
        const extra = list(c?.securityContext?.capabilities?.add).filter((cap) => cap !== "NET_BIND_SERVICE");
        extra.forEach((cap) => added.add(String(cap)));
        return extra.length > 0;
      });
      if (addWho.length)
        parts.push(
          `${containerList(addWho)} must not include ${[...added].map(q).join(", ")} in securityContext.capabilities.add`,
        );
      return parts.length ? { reason: "unrestricted capabilities", detail: parts.join("; ") } : null;
    },
  },
];

/**
 * Every violation of `pod` (a Pod object, or anything with `metadata` and `spec`) against `level`
 * at `version`: `restricted` includes every `baseline` control, `privileged` has none.
 */
export function violations(level: Level, pod: J, version: PolicyVersion = "latest"): Violation[] {
  if (level === "privileged") return [];
  const spec = pod?.spec ?? {};
  const windows = spec?.os?.name === "windows" && atLeast(version, 25);
  const applies = CHECKS.filter((c) => atLeast(version, c.since) && (c.level === "baseline" || level === "restricted"));
  const overridden = new Set(applies.map((c) => c.overrides).filter((id) => id !== undefined));
  // upstream's order: the baseline checks by id, then the restricted ones by id
  const ordered = applies
    .filter((c) => !overridden.has(c.id))
    .sort((a, b) => (a.level === b.level ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.level === "baseline" ? -1 : 1));
  const out: Violation[] = [];
  for (const c of ordered) {
    if (c.linuxOnly && windows) continue;
    const r = c.run(spec, pod?.metadata ?? {}, version);
    if (r) out.push({ check: c.id, ...r });
  }
  return out;
}

/** `baseline:latest`, `restricted:v1.29`: how the API server names a level and version. */
export function formatPolicy(level: Level, version: PolicyVersion): string {
  return `${level}:${version === "latest" ? "latest" : `v${version.major}.${version.minor}`}`;
}

/** The API server's wording: `violates PodSecurity "baseline:latest": host namespaces (hostIPC=true), …`. */
export function formatViolations(level: Level, version: PolicyVersion, found: readonly Violation[]): string {
  return `violates PodSecurity ${JSON.stringify(formatPolicy(level, version))}: ${found.map((v) => `${v.reason} (${v.detail})`).join(", ")}`;
}
