import { JsonValue, parseJsonString } from "../json/index";
import {
  applyArg,
  applyBareFlag,
  argValues,
  hasFlag,
  hasExactFlag,
  countExactFlag,
  hasFlagWithEquals,
  planApplyArg,
  ArgActionKind,
  applyArgToArray,
  applyBareFlagToArray,
  containerArgs,
  containerHasFlag,
  argsReadBy,
} from "../k8s/args";

function parse(text: string): JsonValue {
  const v = parseJsonString(text).value;
  return v !== null ? v : JsonValue.str("<parse failed: " + text + ">");
}

describe("flag detection", () => {
  it("hasFlag matches exact and flag= forms only", () => {
    expect(hasFlag(["--kv-transfer-config", "{}"], "--kv-transfer-config")).toBe(true);
    expect(hasFlag(["--kv-transfer-config="], "--kv-transfer-config")).toBe(true);
    expect(hasFlag(["--kv-transfer-config-x"], "--kv-transfer-config")).toBe(false);
    expect(hasFlag(["--kv_transfer_config", "{}"], "--kv-transfer-config")).toBe(false);
    expect(hasFlag([], "--x")).toBe(false);
  });
  it("containerHasFlag answers as hasFlag over containerArgs, reading the args in place", () => {
    const f = "--kv-transfer-config";
    const answers = [
      ['{"args":["x","--kv-transfer-config","{}"]}', "1"],
      ['{"args":["--kv-transfer-config={}"]}', "1"],
      ['{"args":["--kv-transfer-config-x","--kv_transfer_config"]}', "0"],
      ['{"args":["\\u002d-kv-transfer-config"]}', "1"], // escaped: decoded to compare
      ['{"args":["--kv-transfer-confi"]}', "0"],
      ['{"args":["é--kv-transfer-config"]}', "0"],
      ["{}", "0"],
      ['{"args":null}', "0"],
      ['{"args":[]}', "0"],
      ['{"args":"--kv-transfer-config"}', "-1"],
      ['{"args":["--kv-transfer-config",1]}', "-1"],
      ['{"args":["\\ud800"]}', "-1"],
    ];
    for (let i = 0; i < answers.length; i++) {
      const c = parse(answers[i][0]);
      const args = containerArgs(c);
      expect(containerHasFlag(c, f).toString()).toBe(answers[i][1], answers[i][0]);
      expect(args === null ? -1 : hasFlag(args, f) ? 1 : 0).toBe(containerHasFlag(c, f), answers[i][0]);
    }
    // pushed items are seen too
    const c = parse('{"args":["a"]}');
    c.get("args")!.push(JsonValue.str("--kv-transfer-config=x"));
    expect(containerHasFlag(c, f)).toBe(1);
  });
  it("exact, counted and equals forms", () => {
    expect(hasExactFlag(["--a=1"], "--a")).toBe(false);
    expect(hasExactFlag(["x", "--a"], "--a")).toBe(true);
    expect(countExactFlag(["--a", "--a", "--a=1"], "--a")).toBe(2);
    expect(hasFlagWithEquals(["--a=1"], "--a")).toBe(true);
    expect(hasFlagWithEquals(["--ab=1"], "--a")).toBe(false);
  });
});

describe("applyArg", () => {
  it("exact flag followed by a token: overwrite the next token", () => {
    expect(applyArg(["--attention-backend", "FLASH_ATTN"], "--attention-backend", "CUSTOM")).toStrictEqual([
      "--attention-backend",
      "CUSTOM",
    ]);
  });
  it("overwrites the next token even when it is another flag (acceptance 45)", () => {
    expect(applyArg(["--block-size", "--model", "m"], "--block-size", "64")).toStrictEqual(["--block-size", "64", "m"]);
  });
  it("exact flag as the last token: append the value (acceptance 46)", () => {
    expect(applyArg(["--model", "m", "--block-size"], "--block-size", "64")).toStrictEqual([
      "--model",
      "m",
      "--block-size",
      "64",
    ]);
  });
  it("flag= form is rewritten keeping the form", () => {
    expect(applyArg(["--attention-backend=FLASH_ATTN"], "--attention-backend", "CUSTOM")).toStrictEqual([
      "--attention-backend=CUSTOM",
    ]);
    expect(applyArg(["--kv-transfer-config="], "--kv-transfer-config", "{}")).toStrictEqual([
      "--kv-transfer-config={}",
    ]);
  });
  it("first match only, later duplicates untouched (acceptance 47)", () => {
    expect(applyArg(["--block-size=32", "--block-size", "16"], "--block-size", "64")).toStrictEqual([
      "--block-size=64",
      "--block-size",
      "16",
    ]);
    expect(applyArg(["--block-size", "16", "--block-size=32"], "--block-size", "64")).toStrictEqual([
      "--block-size",
      "64",
      "--block-size=32",
    ]);
  });
  it("no match: append the two tokens", () => {
    expect(applyArg(["--model", "m"], "--block-size", "64")).toStrictEqual(["--model", "m", "--block-size", "64"]);
    expect(applyArg([], "--block-size", "64")).toStrictEqual(["--block-size", "64"]);
  });
  it("aliases and prefixes are not matches", () => {
    expect(applyArg(["--block-sizes", "8"], "--block-size", "64")).toStrictEqual([
      "--block-sizes",
      "8",
      "--block-size",
      "64",
    ]);
  });
  it("compilation config rewrite (acceptance 50)", () => {
    expect(
      applyArg(['--compilation-config={"x":1}'], "--compilation-config", '{"cudagraph_mode":"FULL_DECODE_ONLY"}'),
    ).toStrictEqual(['--compilation-config={"cudagraph_mode":"FULL_DECODE_ONLY"}']);
  });
  it("planApplyArg reports the action", () => {
    const a = planApplyArg(["--x", "1"], "--x", "2");
    expect(a.kind).toBe(ArgActionKind.Replace);
    expect(a.index).toBe(1);
    expect(planApplyArg(["--x"], "--x", "2").kind).toBe(ArgActionKind.Append);
  });
  it("does not modify its input", () => {
    const args = ["--block-size", "8"];
    applyArg(args, "--block-size", "64");
    expect(args).toStrictEqual(["--block-size", "8"]);
  });
});

describe("applyBareFlag", () => {
  it("appends when absent", () => {
    expect(applyBareFlag(["--model", "m"], "--enforce-eager")).toStrictEqual(["--model", "m", "--enforce-eager"]);
  });
  it("keeps an exact match", () => {
    expect(applyBareFlag(["--enforce-eager", "--model", "m"], "--enforce-eager")).toStrictEqual([
      "--enforce-eager",
      "--model",
      "m",
    ]);
  });
  it("flag=value counts as present (acceptance 48)", () => {
    expect(applyBareFlag(["--no-enable-chunked-prefill=true"], "--no-enable-chunked-prefill")).toStrictEqual([
      "--no-enable-chunked-prefill=true",
    ]);
  });
  it("the opposite boolean is not recognized", () => {
    expect(applyBareFlag(["--enable-chunked-prefill"], "--no-enable-chunked-prefill")).toStrictEqual([
      "--enable-chunked-prefill",
      "--no-enable-chunked-prefill",
    ]);
  });
});

describe("argValues", () => {
  it("space and equals forms", () => {
    const v = argValues(["--hicache-ratio", "2", "--x", "--hicache-ratio=2.0"], "--hicache-ratio");
    expect(v.values).toStrictEqual(["2", "2.0"]);
    expect(v.malformed).toBe(0);
    expect(v.present).toBe(true);
  });
  it("absent", () => {
    const v = argValues(["--model-path", "m"], "--hicache-ratio");
    expect(v.values.length).toBe(0);
    expect(v.present).toBe(false);
  });
  it("bare last token is malformed", () => {
    const v = argValues(["--hicache-ratio"], "--hicache-ratio");
    expect(v.values.length).toBe(0);
    expect(v.malformed).toBe(1);
    expect(v.present).toBe(true);
  });
  it("next token starting with -- is malformed and scanning continues with it", () => {
    const v = argValues(["--hicache-size", "--hicache-size", "8"], "--hicache-size");
    expect(v.malformed).toBe(1);
    expect(v.values).toStrictEqual(["8"]);
  });
  it("a single-dash next token is a value", () => {
    expect(argValues(["--hicache-size", "-1"], "--hicache-size").values).toStrictEqual(["-1"]);
  });
  it("empty = rest is malformed", () => {
    const v = argValues(["--hicache-io-backend="], "--hicache-io-backend");
    expect(v.malformed).toBe(1);
    expect(v.values.length).toBe(0);
  });
  it("the consumed value is not rescanned as a flag", () => {
    const v = argValues(["--a", "b", "--a=c"], "--a");
    expect(v.values).toStrictEqual(["b", "c"]);
  });
});

describe("args on the JSON DOM", () => {
  it("applyArgToArray replaces one token and keeps the others' bytes", () => {
    const c = parse('{"args":["--model","Qwen\\/x","--block-size","8"]}');
    const args = c.get("args");
    expect(args !== null && applyArgToArray(args, "--block-size", "64")).toBe(true);
    expect(c.toString()).toBe('{"args":["--model","Qwen\\/x","--block-size","64"]}');
  });
  it("applyBareFlagToArray appends", () => {
    const c = parse('{"args":["--model","m"]}');
    const args = c.get("args");
    expect(args !== null && applyBareFlagToArray(args, "--enforce-eager")).toBe(true);
    expect(c.toString()).toBe('{"args":["--model","m","--enforce-eager"]}');
  });
  it("refuses an array with a non-string token", () => {
    const c = parse('{"args":["--model",1]}');
    const args = c.get("args");
    expect(args !== null && applyArgToArray(args, "--block-size", "64")).toBe(false);
    expect(c.toString()).toBe('{"args":["--model",1]}');
  });
  it("containerArgs", () => {
    const none = containerArgs(parse("{}"));
    expect(none !== null && none.length == 0).toBe(true);
    const nul = containerArgs(parse('{"args":null}'));
    expect(nul !== null && nul.length == 0).toBe(true);
    expect(containerArgs(parse('{"args":"x"}')) === null).toBe(true);
    expect(containerArgs(parse('{"args":["a",true]}')) === null).toBe(true);
    const ok = containerArgs(parse('{"args":["a","\\u00e9"]}'));
    expect(ok !== null && ok.length == 2 && ok[1] == "é").toBe(true);
  });
  it("argsReadBy keeps what the flag rules read: a flag's items and the token after an exact flag", () => {
    const flags = ["--h-a", "--h-b", "--e"];
    const c = parse(
      '{"args":["x","--h-a","--h-b","5","y","--h-c=1","z","--e","--q","\\u002d-h-b","w","--ee","--h-a"]}',
    );
    const all = containerArgs(c)!;
    const read = argsReadBy(c.get("args")!, ["--h-", "--e"], flags)!;
    expect(read.join(" ")).toBe("--h-a --h-b 5 --h-c=1 --e --q --h-b w --ee --h-a");
    for (let i = 0; i < flags.length; i++) {
      expect(hasFlag(read, flags[i])).toBe(hasFlag(all, flags[i]));
      expect(countExactFlag(read, flags[i])).toBe(countExactFlag(all, flags[i]));
      expect(hasFlagWithEquals(read, flags[i])).toBe(hasFlagWithEquals(all, flags[i]));
      const a = argValues(read, flags[i]);
      const b = argValues(all, flags[i]);
      expect(a.values.join(",")).toBe(b.values.join(","));
      expect(a.malformed).toBe(b.malformed);
    }
    expect(argsReadBy(parse('["a",1]'), ["--h-"], flags) === null).toBe(true);
    expect(argsReadBy(parse('["a","b"]'), ["--h-"], flags)!.length).toBe(0);
  });
});
