// "Why was a pod not wired?": each injector's README says where its skip reason shows, and that
// statement is held to what the policy does on every skip case of its test_data: a pod annotation
// only if the policy writes one (hicache-injector writes none), always the `skip-reason` audit
// annotation and the warning. The top README's table says the same, and covers the two silent
// cases (no opt-in label: the policy is never called; policy-server down with failurePolicy Ignore).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { PolicyModule } from "../tools/host/guest";
import { loadCases, runCase } from "../tools/host/cases";
import { discoverPolicies } from "../tools/wasm/index";
import { readMetadataYaml } from "../tools/wasm/metadata";
import { ROOT } from "./helpers/host-guests";

const POLICIES = discoverPolicies(path.join(ROOT, "policies"));
/** the pod injectors: mutating policies registered for pods (not the CacheBackend defaulter) */
const injectors = POLICIES.filter((p) => {
  const meta = readMetadataYaml(path.join(ROOT, "policies", p, "metadata.yml"));
  const rules = (meta.rules ?? []) as { resources?: string[] }[];
  return meta.mutating === true && rules.some((r) => (r.resources ?? []).includes("pods"));
});
const topReadme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");

/** The pod annotation keys a policy's skips write, over every skip case of its test_data. */
function skipAnnotations(policy: string): { cases: number; keys: Set<string> } {
  const dir = path.join(ROOT, "policies", policy);
  const module = PolicyModule.fromFile(path.join(dir, "annotated-policy.wasm"));
  const keys = new Set<string>();
  let cases = 0;
  for (const c of loadCases(dir)) {
    if (c.operation === "validate_settings") continue;
    const r = runCase(policy, module, c, path.join(dir, "test_data"));
    const response = r.evaluation?.response;
    if (!response?.auditAnnotations?.["skip-reason"]) continue;
    cases++;
    for (const op of r.evaluation!.patchOperations ?? [])
      if (op.path.startsWith("/metadata/annotations/") && op.path.endsWith("skip-reason"))
        keys.add(op.path.slice("/metadata/annotations/".length).replace(/~1/g, "/"));
    for (const op of r.evaluation!.patchOperations ?? []) {
      const value = (op as { value?: unknown }).value;
      if (op.path === "/metadata/annotations" && value && typeof value === "object")
        for (const k of Object.keys(value)) if (k.endsWith("skip-reason")) keys.add(k);
    }
    assert.ok(
      (response.warnings ?? []).some((w) => w.startsWith(`${policy}: injection skipped (`)),
      `${policy}/${c.name}: a skip comes with its warning`,
    );
  }
  return { cases, keys };
}

/** The README paragraph that starts with "Where the reason shows:". */
function whereItShows(policy: string): string {
  const readme = fs.readFileSync(path.join(ROOT, "policies", policy, "README.md"), "utf8");
  const para = readme.split("\n\n").find((p) => p.startsWith("Where the reason shows:"));
  assert.ok(para, `policies/${policy}/README.md has a "Where the reason shows:" paragraph`);
  return para.replace(/\s+/g, " ");
}

describe("each injector's README says where its skip reason shows, as the policy does", () => {
  for (const policy of injectors) {
    test(
      policy,
      { skip: !fs.existsSync(path.join(ROOT, "policies", policy, "annotated-policy.wasm")) && "not built" },
      () => {
        const { cases, keys } = skipAnnotations(policy);
        assert.ok(cases > 0, "the test data has skip cases");
        const stated = whereItShows(policy);
        assert.match(stated, /the audit annotation `skip-reason`/);
        assert.match(stated, /the warning/);
        if (keys.size === 0) assert.match(stated, /^Where the reason shows: no pod annotation/);
        for (const key of keys) assert.ok(stated.includes(`the pod annotation \`${key}\``), `${policy} writes ${key}`);
        const row = topReadme
          .split("\n")
          .find((l) => l.trimStart().startsWith(`| \`${policy}\` |`) && l.includes("injection skipped"));
        assert.ok(row, `README.md's table has a row for ${policy}`);
        assert.equal(row!.split("|")[2].trim(), keys.size === 0 ? "none" : [...keys].map((k) => `\`${k}\``).join(", "));
      },
    );
  }

  test("the top README covers both silent cases and how to tell them apart", () => {
    const section = topReadme.slice(
      topReadme.indexOf("**Why was a pod not wired?**"),
      topReadme.indexOf("## Before you enable"),
    );
    assert.match(section, /\*the opt-in label is missing\*/);
    assert.match(section, /not selected \(objectSelector\)/);
    assert.match(section, /\*the policy-server was down\*/);
    assert.match(section, /failurePolicy: Ignore/);
    assert.match(section, /failed-open\.mutation\.webhook\.admission\.k8s\.io\//);
    assert.doesNotMatch(section, /`<prefix>-skip-reason`/, "not every injector writes a skip annotation");
  });
});
