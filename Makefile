# cachewarden top-level targets. The work is done by the Node CLI (bin/cachewarden.js); make only
# names the steps CI and people run. `build` is incremental (per-policy stamps), so `make` is cheap.
CLI := node bin/cachewarden.js

POLICY_WASM := $(wildcard policies/*/policy.wasm)
ANNOTATED_WASM := $(wildcard policies/*/annotated-policy.wasm)

.PHONY: all build push generate test e2e-tests lint fmt typecheck examples bench fuzz mutation check-wasm clean

all: build

## build: compile, gate and annotate every policies/<name>/ (skips unchanged ones; FORCE=1 rebuilds)
build:
	$(CLI) build $(if $(FORCE),--force)

## push: publish every policy as <REGISTRY>/<name>:v<version> (REGISTRY=host[:port]/path; default:
## each metadata.yml ociUrl). Credentials come from the Docker config (docker login / $DOCKER_CONFIG,
## credential helpers included). SOURCES_PATH=<kwctl sources.yaml> for plain-HTTP insecure_sources;
## OVERWRITE=1 to replace a tag that holds a different module.
push: build
	$(CLI) publish $(if $(REGISTRY),--registry $(REGISTRY)) $(if $(SOURCES_PATH),--sources-path $(SOURCES_PATH)) $(if $(OVERWRITE),--overwrite)

## generate: rewrite policies/*/artifacthub-pkg.yml and deploy/ from policies/*/ (rerun after adding a policy)
generate:
	$(CLI) generate

## test: the whole suite (build, tsc, as-pect, node:test) ending in "<N> passed, <M> failed"
test:
	npm test

## e2e-tests: each policy's kwctl bats file (policies/*/e2e.bats); skipped with a message where
## kwctl or bats is absent (the Node suites run every case through the project's own host)
e2e-tests: build
	@if ! command -v kwctl >/dev/null 2>&1; then echo "e2e-tests: skipped, kwctl is not installed (npm test runs every case through tools/host)"; \
	elif ! command -v bats >/dev/null 2>&1; then echo "e2e-tests: skipped, bats is not installed"; \
	else bats policies/*/e2e.bats; fi

## lint: ESLint over the Node tooling and the AssemblyScript (eslint.config.mjs)
lint:
	npm run lint

## fmt: format every TypeScript/AssemblyScript source with Prettier (.prettierrc.json); `npm run fmt:check` only checks
fmt:
	npm run fmt

typecheck:
	npx tsc -p tsconfig.json

examples:
	$(CLI) examples

bench:
	$(CLI) bench --record-pages

fuzz:
	$(CLI) fuzz

## mutation: StrykerJS over tools/host/ (fails below 85 %); SCOPE=tools for all of tools/. Slow, not in CI.
## Reports: reports/mutation/host.html and host.json (tools.* with SCOPE=tools) (docs/contributing.md)
mutation:
	nice -n 10 $(if $(filter tools,$(SCOPE)),npm run mutate:tools,npm run mutate)

## check-wasm: re-run the structural gates on the modules currently in policies/ (docs/wasm-contract.md#structural-gates)
check-wasm:
	@if [ -z "$(strip $(POLICY_WASM) $(ANNOTATED_WASM))" ]; then echo "check-wasm: no built modules under policies/ (run make build)"; fi
	$(if $(strip $(POLICY_WASM)),$(CLI) check --unannotated $(POLICY_WASM))
	$(if $(strip $(ANNOTATED_WASM)),$(CLI) check $(ANNOTATED_WASM))

## clean: remove build outputs and stamps (sources untouched)
clean:
	rm -f policies/*/policy.wasm policies/*/annotated-policy.wasm policies/*/.build-stamp.json
