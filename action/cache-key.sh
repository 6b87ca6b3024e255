#!/usr/bin/env bash
# Prints the cache key of the mcp-conform binary this action builds: the runner's
# OS and architecture, the crate's version, and a hash of everything the build
# reads (manifest, lockfile, sources, catalog), so a new action commit that
# changes the scanner gets a new key and one that does not reuses the binary.
#
# Inputs, as environment variables:
#   ACTION_PATH    this action's checkout
#   RUNNER_OS      e.g. Linux (set by the runner)
#   RUNNER_ARCH    e.g. X64 (set by the runner)
#   GITHUB_OUTPUT  the step-output file (set by the runner); the key also goes to stdout
set -euo pipefail

src="${ACTION_PATH:?ACTION_PATH is not set}"
cd "${src}"
if command -v sha256sum >/dev/null 2>&1; then
    hash() { sha256sum; }
else
    hash() { shasum -a 256; }
fi
version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
digest="$(
    find Cargo.toml Cargo.lock src rules -type f -print 2>/dev/null | LC_ALL=C sort |
        while IFS= read -r file; do
            printf '%s\n' "${file}"
            hash <"${file}"
        done | hash | cut -c1-16
)"
key="mcp-conform-${RUNNER_OS:-$(uname -s)}-${RUNNER_ARCH:-$(uname -m)}-${version}-${digest}"
echo "key=${key}" >>"${GITHUB_OUTPUT:-/dev/null}"
echo "${key}"
