#!/usr/bin/env bats
# kwctl end-to-end checks (run only where kwctl exists; the Node e2e suite covers every case).
# Build first: node bin/cachewarden.js build lmcache-injector

setup() {
  command -v kwctl >/dev/null || skip "kwctl is not installed"
  cd "$BATS_TEST_DIRNAME"
}

patch_of() { echo "$output" | jq -r '.patch' | base64 -d; }

@test "full injection of the realistic vLLM pod" {
  run kwctl run annotated-policy.wasm -r test_data/request_full-injection.json \
    --settings-path test_data/settings_default.json --allow-context-aware \
    --replay-host-capabilities-interactions test_data/session_full-injection.yml
  [ "$status" -eq 0 ]
  echo "$output" | grep -q '"allowed":true'
  patch_of | jq -e 'map(select(.path == "/spec/hostIPC" and .value == true)) | length == 1'
  patch_of | grep -q 'lmcache-injected'
}

@test "ConfigMap absent: only the skip reason" {
  run kwctl run annotated-policy.wasm -r test_data/request_configmap-absent.json \
    --settings-path test_data/settings_default.json --allow-context-aware \
    --replay-host-capabilities-interactions test_data/session_configmap-absent.yml
  [ "$status" -eq 0 ]
  echo "$output" | grep -q '"allowed":true'
  echo "$output" | grep -q 'injection skipped (engine-not-found)'
  patch_of | jq -e 'length == 1 and .[0].path == "/metadata/annotations/lmcache.ai~1lmcache-skip-reason"'
}

@test "no context-aware access (AdmissionPolicy): lookup-denied" {
  run kwctl run annotated-policy.wasm -r test_data/request_lookup-denied.json \
    --settings-path test_data/settings_default.json
  [ "$status" -eq 0 ]
  echo "$output" | grep -q 'injection skipped (lookup-denied)'
}

@test "inline engine without lookups" {
  run kwctl run annotated-policy.wasm -r test_data/request_settings-engine.json \
    --settings-path test_data/settings_engine-cb-inline.json
  [ "$status" -eq 0 ]
  patch_of | grep -q 'kv_connector'
}

@test "invalid settings are refused" {
  run kwctl run annotated-policy.wasm -r test_data/request_basic-injection.json \
    --settings-path test_data/settings_settings-unknown-key.json
  [ "$status" -ne 0 ]
  echo "$output" | grep -q 'lookups: unknown field'
}
