import { JsonValue, parseJsonString } from "../json/index";
import { EngineGeneration, nixlPortText, readEngineGeneration, Tristate } from "../lmcache/generation";
import { connectionSaysIsolated, decideIpcMode, IpcMode, IpcPlan, planIpc } from "../lmcache/ipc";
import { PdWiring } from "../lmcache/pd";

function json(text: string): JsonValue {
  const v = parseJsonString(text).value;
  return v !== null ? v : JsonValue.str("unparsable test input");
}
function gen(spec: string): EngineGeneration {
  return readEngineGeneration(json(spec));
}
const NO_SETTINGS = "{}";
function mode(spec: string, cacheBlend: bool = false, kv: string = "{}", settings: string = NO_SETTINGS): IpcMode {
  return decideIpcMode(json(settings), gen(spec), kv, cacheBlend);
}

describe("readEngineGeneration", () => {
  it("is current with any of hostIPC, isolatedIPC, pd non-null, legacy otherwise", () => {
    expect(gen("{}").current).toBe(false);
    expect(gen('{"hostIPC":null,"pd":null}').current).toBe(false);
    expect(gen('{"hostIPC":false}').current).toBe(true);
    expect(gen('{"isolatedIPC":"x"}').current).toBe(true);
    expect(gen('{"pd":{}}').current).toBe(true);
  });
  it("does not count gpuVendor: the first operator's CRDs default it too", () => {
    expect(gen('{"gpuVendor":"nvidia"}').current).toBe(false);
    expect(gen('{"gpuVendor":"amd"}').current).toBe(false);
    expect(gen('{"gpuVendor":"nvidia","logLevel":"INFO","l1":{"sizeGB":10}}').current).toBe(false);
    expect(gen('{"gpuVendor":"nvidia","hostIPC":false}').current).toBe(true);
  });
  it("reads a non-boolean hostIPC as unset and only the exact string amd as AMD", () => {
    expect(gen('{"hostIPC":"true"}').hostIPC).toBe(Tristate.Unset);
    expect(gen('{"hostIPC":true}').hostIPC).toBe(Tristate.True);
    expect(gen('{"gpuVendor":"AMD"}').amd).toBe(false);
    expect(gen('{"gpuVendor":"amd"}').amd).toBe(true);
  });
  it("marks a pd that is not an object, or a port outside [1024, 65535], malformed", () => {
    expect(gen('{"pd":"on"}').pdMalformed).toBe(true);
    expect(gen('{"pd":{"nixlSideChannelPort":1023}}').pdMalformed).toBe(true);
    expect(gen('{"pd":{"nixlSideChannelPort":1024}}').nixlPort).toBe("1024");
    expect(gen('{"pd":{}}').nixlPort).toBe("5558");
    expect(gen('{"pd":{"nixlSideChannelPort":null}}').nixlPort).toBe("5558");
  });
});

describe("nixlPortText", () => {
  it("accepts integral numbers in [1024, 65535], also written with .0", () => {
    expect(nixlPortText(json("1024"))).toBe("1024");
    expect(nixlPortText(json("65535"))).toBe("65535");
    expect(nixlPortText(json("5600.0"))).toBe("5600");
    expect(nixlPortText(json("5600.00"))).toBe("5600");
  });
  it("refuses both sides of the bounds, fractions, negatives, exponents and strings", () => {
    expect(nixlPortText(json("1023"))).toBe("");
    expect(nixlPortText(json("65536"))).toBe("");
    expect(nixlPortText(json("100000"))).toBe("");
    expect(nixlPortText(json("5600.5"))).toBe("");
    expect(nixlPortText(json("-5600"))).toBe("");
    expect(nixlPortText(json("5.6e3"))).toBe("");
    expect(nixlPortText(json('"5600"'))).toBe("");
  });
});

describe("decideIpcMode", () => {
  it("current LMCache engines: isolated unless amd or isolatedIPC false", () => {
    expect(mode('{"gpuVendor":"nvidia","hostIPC":false}')).toBe(IpcMode.PrivateShm);
    expect(mode('{"gpuVendor":"amd","hostIPC":false}')).toBe(IpcMode.HostShm);
    expect(mode('{"gpuVendor":"amd","hostIPC":true}')).toBe(IpcMode.HostIPC);
    expect(mode('{"isolatedIPC":true,"hostIPC":true}')).toBe(IpcMode.PrivateShm);
    expect(mode('{"isolatedIPC":false,"hostIPC":false}')).toBe(IpcMode.HostShm);
  });
  it("legacy LMCache engines follow the connection config's isolated_ipc boolean", () => {
    expect(mode("{}")).toBe(IpcMode.HostIPC);
    expect(mode('{"gpuVendor":"nvidia"}')).toBe(IpcMode.HostIPC);
    expect(mode('{"gpuVendor":"amd"}')).toBe(IpcMode.HostIPC);
    const isolated = '{"kv_connector_extra_config":{"lmcache.mp.isolated_ipc":true}}';
    expect(mode("{}", false, isolated)).toBe(IpcMode.PrivateShm);
    expect(mode("{}", false, '{"kv_connector_extra_config":{"lmcache.mp.isolated_ipc":"true"}}')).toBe(IpcMode.HostIPC);
    expect(connectionSaysIsolated('{"lmcache.mp.isolated_ipc":true}')).toBe(false);
  });
  it("CacheBlend legacy engines with gpuVendor keep hostIPC", () => {
    expect(mode('{"gpuVendor":"nvidia"}', true)).toBe(IpcMode.HostIPC);
    expect(mode('{"gpuVendor":"nvidia","hostIPC":false}', true)).toBe(IpcMode.HostShm);
  });
  it("CacheBlend has no isolated mode", () => {
    expect(mode('{"isolatedIPC":true}', true)).toBe(IpcMode.HostShm);
    expect(mode('{"hostIPC":true}', true)).toBe(IpcMode.HostIPC);
    expect(mode("{}", true, '{"kv_connector_extra_config":{"lmcache.mp.isolated_ipc":true}}')).toBe(IpcMode.HostIPC);
  });
  it("ipcMode replaces the table", () => {
    expect(mode("{}", false, "{}", '{"ipcMode":"isolated"}')).toBe(IpcMode.PrivateShm);
    const nvidia = '{"gpuVendor":"nvidia","hostIPC":false}';
    expect(mode(nvidia, false, "{}", '{"ipcMode":"hostShm"}')).toBe(IpcMode.HostShm);
    expect(mode(nvidia, false, "{}", '{"ipcMode":"hostIPC"}')).toBe(IpcMode.HostIPC);
    expect(mode(nvidia, false, "{}", '{"ipcMode":"auto"}')).toBe(IpcMode.PrivateShm);
    expect(mode('{"gpuVendor":"nvidia"}', false, "{}", '{"ipcMode":"auto"}')).toBe(IpcMode.HostIPC);
  });
});

function plan(pod: string, m: IpcMode): IpcPlan {
  const p = json(pod);
  const out = new IpcPlan();
  const c = p.get("spec")!.get("containers")!.at(0)!;
  expect(planIpc(p, c, "spec.containers[0]", m, out)).toBe("");
  return out;
}

describe("planIpc", () => {
  it("adds the volume unless a guard holds", () => {
    expect(plan('{"spec":{"containers":[{"name":"v"}]}}', IpcMode.PrivateShm).addVolume).toBe(true);
    expect(plan('{"spec":{"hostIPC":true,"containers":[{"name":"v"}]}}', IpcMode.PrivateShm).addVolume).toBe(false);
    expect(
      plan('{"spec":{"volumes":[{"name":"lmcache-dev-shm"}],"containers":[{"name":"v"}]}}', IpcMode.HostShm).addVolume,
    ).toBe(false);
  });
  it("warns in host shm mode only when the target's /dev/shm is not the host's", () => {
    const own =
      '{"spec":{"volumes":[{"name":"d","emptyDir":{}}],"containers":[{"name":"v","volumeMounts":[{"name":"d","mountPath":"/dev/shm/"}]}]}}';
    expect(plan(own, IpcMode.HostShm).hiddenHostShm).toBe(true);
    expect(plan(own, IpcMode.PrivateShm).hiddenHostShm).toBe(false);
    const host =
      '{"spec":{"volumes":[{"name":"d","hostPath":{"path":"/dev/shm"}}],"containers":[{"name":"v","volumeMounts":[{"name":"d","mountPath":"/dev/shm"}]}]}}';
    expect(plan(host, IpcMode.HostShm).hiddenHostShm).toBe(false);
  });
});

describe("PdWiring", () => {
  it("knows exactly the empty role, prefiller and decoder", () => {
    const pd = new PdWiring();
    pd.active = true;
    pd.role = "decoder";
    expect(pd.known).toBe(true);
    expect(pd.connectionKey).toBe("kv-transfer-config-decoder.json");
    pd.role = "Decoder";
    expect(pd.known).toBe(false);
    pd.role = "";
    expect(pd.connectionKey).toBe("kv-transfer-config.json");
    pd.active = false;
    pd.role = "prefiller";
    expect(pd.connectionKey).toBe("kv-transfer-config.json");
    expect(pd.ignored).toBe(true);
  });
  it("finds a role unknown only when it is read: the engine has spec.pd", () => {
    const pd = new PdWiring();
    pd.role = "prefill";
    pd.active = true;
    expect(pd.unknown).toBe(true);
    expect(pd.ignored).toBe(false);
    pd.active = false;
    expect(pd.unknown).toBe(false);
    expect(pd.ignored).toBe(true);
    expect(pd.connectionKey).toBe("kv-transfer-config.json");
    pd.active = true;
    pd.role = "prefiller";
    expect(pd.unknown).toBe(false);
  });
});
