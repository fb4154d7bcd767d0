// One instance answering every bundled case, in order and in reverse, must answer each exactly as a
// fresh instance does, with memory flat after the first round. The production runtime resets the
// whole heap after every call (assembly/wapc releaseCallMemory); a global still pointing into a
// previous call's heap would show up here as a different answer or a trap. policy-server uses a
// fresh instance per request, but kwctl-like hosts, the Node host and the benchmarks do not.
// It also holds the injectors' two ways of answering to the same bytes: a fresh instance writes
// the response over the request when it may, a reused one builds a buffer of its own
// (ValidationResponse.toBytesOver).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { HostCapabilities } from "../tools/host/capabilities";
import { WarmInstance } from "../tools/host/instance";
import { PolicyModule } from "../tools/host/guest";
import { discoverPolicies, loadValidateCases } from "../tools/bench/policies";

const { targets } = discoverPolicies();

describe("a reused instance answers like a fresh one", () => {
  test("at least one built policy with cases", () => {
    assert.ok(
      targets.some((t) => loadValidateCases(t).length > 0),
      "no built policy with validate cases (run `npm run build`)",
    );
  });

  for (const target of targets) {
    test(target.name, () => {
      const module = PolicyModule.fromFile(target.wasm);
      const cases = loadValidateCases(target);
      const fresh = cases.map((c) =>
        module.call("validate", c.payload, { hostCall: new HostCapabilities(c.host).handler }),
      );
      const warm = new WarmInstance(module.module);
      const settingsProbe = '{"no-such-setting":true}';
      const freshSettings = module.call("validate_settings", settingsProbe);
      let memoryAfterFirstRound = 0;
      for (const order of ["forward", "reverse", "forward"] as const) {
        const indices = cases.map((_, i) => i);
        if (order === "reverse") indices.reverse();
        for (const i of indices) {
          const c = cases[i];
          const r = warm.call("validate", c.payload, { hostCall: new HostCapabilities(c.host).handler });
          assert.equal(r.trapped, false, `${c.name} (${order}): trapped: ${r.trap}`);
          assert.equal(r.ok, fresh[i].ok, `${c.name} (${order}): ${r.error ?? ""}`);
          if (r.ok)
            assert.ok(
              r.response!.equals(fresh[i].response!),
              `${c.name} (${order}): the reused instance answered differently`,
            );
          else assert.equal(r.error, fresh[i].error, `${c.name} (${order})`);
          // a different operation in between: nothing of it may leak into the next call
          const s = warm.call("validate_settings", settingsProbe);
          assert.ok(
            s.ok && freshSettings.ok && s.response!.equals(freshSettings.response!),
            `validate_settings after ${c.name} (${order})`,
          );
        }
        if (memoryAfterFirstRound === 0) memoryAfterFirstRound = warm.memoryBytes;
        else
          assert.equal(
            warm.memoryBytes,
            memoryAfterFirstRound,
            "linear memory grew after the first round: a call's memory is not freed",
          );
      }
    });
  }
});
