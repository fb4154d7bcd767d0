// as-pect configuration (CommonJS: the package is "type": "commonjs").
// Every spec is linked against stub `wapc` imports, so a spec that pulls in the ABI links exactly
// as a policy does in policy-server; host calls answer "not granted" unless a spec needs more.
const WAPC_STUBS = {
  __guest_request() {},
  __guest_response() {},
  __guest_error() {},
  __host_call() { return 0; },
  __host_response_len() { return 0; },
  __host_response() {},
  __host_error_len() { return 0; },
  __host_error() {},
  __console_log() {},
};

module.exports = {
  entries: [
    "assembly/__tests__/**/*.spec.ts",
    "policies/*/assembly/__tests__/**/*.spec.ts",
  ],
  include: ["assembly/__tests__/**/*.include.ts"],
  disclude: [/node_modules/],
  async instantiate(memory, createImports, instantiate, binary) {
    return await instantiate(binary, createImports({ env: { memory }, wapc: WAPC_STUBS }));
  },
  outputBinary: false,
};
