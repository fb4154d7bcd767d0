import {
  ENV_VAR_NAME_DOT_MESSAGE,
  ENV_VAR_NAME_DOTDOT_MESSAGE,
  ENV_VAR_NAME_DOTDOT_PREFIX_MESSAGE,
  ENV_VAR_NAME_PATTERN_MESSAGE,
  envVarNameErrors,
  isCIdentifier,
  isEnvVarName,
} from "../validate/index";

describe("IsEnvVarName (cachebackend-validator rule 24)", () => {
  it("message texts", () => {
    expect(ENV_VAR_NAME_PATTERN_MESSAGE).toBe(
      "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')",
    );
    expect(ENV_VAR_NAME_DOT_MESSAGE).toBe("must not be '.'");
    expect(ENV_VAR_NAME_DOTDOT_MESSAGE).toBe("must not be '..'");
    expect(ENV_VAR_NAME_DOTDOT_PREFIX_MESSAGE).toBe("must not start with '..'");
  });
  it("accepts valid names", () => {
    const ok = ["X", "MY_ENV", "my.env-name", "MY_ENV.NAME", "MyEnvName1", "_x", "-x", ".x", "LMCACHE_CHUNK_SIZE"];
    for (let i = 0; i < ok.length; i++) expect(isEnvVarName(ok[i])).toBe(true, ok[i]);
  });
  it("1BAD: pattern message", () => {
    expect(envVarNameErrors("1BAD")).toStrictEqual([ENV_VAR_NAME_PATTERN_MESSAGE]);
  });
  it("empty, space, non-ASCII: pattern message", () => {
    expect(envVarNameErrors("")).toStrictEqual([ENV_VAR_NAME_PATTERN_MESSAGE]);
    expect(envVarNameErrors("A B")).toStrictEqual([ENV_VAR_NAME_PATTERN_MESSAGE]);
    expect(envVarNameErrors("NAMÉ")).toStrictEqual([ENV_VAR_NAME_PATTERN_MESSAGE]);
    expect(envVarNameErrors("A=B")).toStrictEqual([ENV_VAR_NAME_PATTERN_MESSAGE]);
  });
  it(". and .. and ..x", () => {
    expect(envVarNameErrors(".")).toStrictEqual([ENV_VAR_NAME_DOT_MESSAGE]);
    expect(envVarNameErrors("..")).toStrictEqual([ENV_VAR_NAME_DOTDOT_MESSAGE]);
    expect(envVarNameErrors("..x")).toStrictEqual([ENV_VAR_NAME_DOTDOT_PREFIX_MESSAGE]);
  });
  it("both pattern and prefix messages", () => {
    expect(envVarNameErrors("..é")).toStrictEqual([ENV_VAR_NAME_PATTERN_MESSAGE, ENV_VAR_NAME_DOTDOT_PREFIX_MESSAGE]);
  });
});

describe("C identifier", () => {
  it("accepts [A-Za-z_][A-Za-z0-9_]*", () => {
    const ok = ["A", "_", "a1", "PYTHONPATH", "SHARED_DIR", "x_Y_9"];
    for (let i = 0; i < ok.length; i++) expect(isCIdentifier(ok[i])).toBe(true, ok[i]);
  });
  it("rejects others", () => {
    const bad = ["", "1A", "A-B", "A.B", "A B", "É", "-"];
    for (let i = 0; i < bad.length; i++) expect(isCIdentifier(bad[i])).toBe(false, bad[i]);
  });
});
