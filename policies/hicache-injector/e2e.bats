#!/usr/bin/env bats
# kwctl end-to-end checks (run only where kwctl exists; the Node e2e suite covers every case).
# Build first: node bin/cachewarden.js build hicache-injector

setup() {
  command -v kwctl >/dev/null || skip "kwctl is not installed"
  cd "$BATS_TEST_DIRNAME"
}

patch_of() { echo "$output" | jq -r '.patch' | base64 -d; }

@test "NFS wiring from settings-carried backends" {
  run kwctl run annotated-policy.wasm -r test_data/request_inline-backend-admission-policy.json \
    --settings-path test_data/settings_inline-backend-admission-policy.json
  [ "$status" -eq 0 ]
  echo "$output" | grep -q '"allowed":true'
  patch_of | grep -q 'inferencecache-hicache-l3'
  patch_of | grep -q 'SGLANG_HICACHE_FILE_BACKEND_STORAGE_DIR'
}

@test "list lookup that fails: lookup-failed warning, forged provenance removed" {
  run kwctl run annotated-policy.wasm -r test_data/request_lookup-server-error.json \
    --settings-path test_data/settings_default.json --allow-context-aware \
    --replay-host-capabilities-interactions test_data/session_list-server-error.yml
  [ "$status" -eq 0 ]
  echo "$output" | grep -q '"allowed":true'
  echo "$output" | grep -q 'injection skipped (lookup-failed)'
}
