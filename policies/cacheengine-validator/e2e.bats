#!/usr/bin/env bats
# kwctl end-to-end checks (run only where kwctl exists; the Node e2e suite covers every case).
# Build first: node bin/cachewarden.js build cacheengine-validator

setup() {
  command -v kwctl >/dev/null || skip "kwctl is not installed"
  cd "$BATS_TEST_DIRNAME"
}

@test "a valid CacheBlendEngine is accepted" {
  run kwctl run annotated-policy.wasm -r test_data/request_cb-base.json
  [ "$status" -eq 0 ]
  echo "$output" | grep -q '"allowed":true'
}

@test "the payloadImage: {} footgun is rejected with a field error" {
  run kwctl run annotated-policy.wasm -r test_data/request_lm-defaulted-footgun-repository.json
  [ "$status" -eq 0 ]
  echo "$output" | grep -q '"allowed":false'
  echo "$output" | grep -q '"code":422'
  echo "$output" | grep -q 'spec.injection.payloadImage.repository: Invalid value: \\"lmcache/vllm-openai\\"'
}

@test "UPDATE keeps a pre-existing violation editable" {
  run kwctl run annotated-policy.wasm -r test_data/request_update-preexisting-footgun.json
  [ "$status" -eq 0 ]
  echo "$output" | grep -q '"allowed":true'
}

@test "settings are rejected" {
  run kwctl run annotated-policy.wasm -r test_data/request_cb-base.json --settings-json '{"strict":true}'
  [ "$status" -ne 0 ]
  echo "$output" | grep -q 'strict: unknown field'
}
