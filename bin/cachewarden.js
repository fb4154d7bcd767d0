#!/usr/bin/env node
// The CLI is TypeScript; tsx compiles it on the fly so there is no separate build step for tooling.
require("tsx/cjs");
require("../tools/cli.ts");
