#!/usr/bin/env bats
# kwctl end-to-end checks (run only where kwctl exists; the Node e2e suite covers every case).
# Build first: node bin/cachewarden.js build cachebackend-defaulter

setup() {
  command -v kwctl >/dev/null || skip "kwctl is not installed"
  cd "$BATS_TEST_DIRNAME"
}

patch_of() { echo "$output" | jq -r '.patch' | base64 -d; }

@test "an empty spec gets the legacy resources and the integration block" {
  run kwctl run annotated-policy.wasm -r test_data/request_acceptance-1-empty-spec.json
  [ "$status" -eq 0 ]
  echo "$output" | grep -q '"allowed":true'
  patch_of | grep -q '"/spec/resources"'
  patch_of | grep -q '"firstEventTimeout":"5m0s"'
}

@test "NFS HiCache without failOpen: defaulted, with the failOpen warning" {
  run kwctl run annotated-policy.wasm -r test_data/request_acceptance-12-nfs-without-fail-open.json
  [ "$status" -eq 0 ]
  echo "$output" | grep -q '"allowed":true'
  echo "$output" | grep -q 'failOpen defaults to true, which NFS HiCache rejects'
}

@test "a defaulted backend: no patch" {
  run kwctl run annotated-policy.wasm -r test_data/request_acceptance-10-already-defaulted.json
  [ "$status" -eq 0 ]
  echo "$output" | grep -q '"allowed":true'
  ! echo "$output" | grep -q '"patch"'
}
