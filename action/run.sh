#!/usr/bin/env bash
# The shell part of the mcp-conform GitHub Action (action.yml): install the
# scanner if needed, write SARIF for code scanning, print the findings to the
# log, and report the exit status as step outputs. It exits 0 when checks fail
# (status 1) so the SARIF still gets uploaded; the action fails the job after
# the upload. A usage or configuration error (status 2) fails at once.
#
# Inputs, as environment variables:
#   INPUT_PATHS       files or folders to scan, space-separated (default ".")
#   INPUT_ARGS        extra arguments for `mcp-conform check` (optional)
#   INPUT_SARIF_FILE  where to write the SARIF log (default mcp-conform.sarif)
#   ACTION_PATH       this action's checkout, built when no binary is given
#   MCP_CONFORM_BIN   an mcp-conform binary to use instead of building one
#   MCP_CONFORM_ROOT  where the built binary is installed (bin/mcp-conform) and
#                     found again: the folder the action's cache step restores
#   GITHUB_OUTPUT     the step-output file (set by the runner)
set -euo pipefail

paths_text="${INPUT_PATHS:-.}"
read -r -a paths <<<"${paths_text}"
read -r -a extra <<<"${INPUT_ARGS:-}"
sarif="${INPUT_SARIF_FILE:-mcp-conform.sarif}"
output="${GITHUB_OUTPUT:-/dev/null}"

bin="${MCP_CONFORM_BIN:-}"
if [[ -z "${bin}" ]]; then
    if command -v mcp-conform >/dev/null 2>&1; then
        bin="$(command -v mcp-conform)"
    else
        root="${MCP_CONFORM_ROOT:-${RUNNER_TOOL_CACHE:-${HOME}/.cache}/mcp-conform}"
        bin="${root}/bin/mcp-conform"
        # A binary restored by the cache step (same key: same sources, OS and
        # architecture) is used when it runs; otherwise build it, once.
        if [[ -x "${bin}" ]] && "${bin}" --version >/dev/null 2>&1; then
            echo "Using the cached build: $("${bin}" --version)"
        else
            echo "Building mcp-conform from ${ACTION_PATH:?ACTION_PATH is not set} (no cached build)"
            started=${SECONDS}
            cargo install --locked --quiet --force --path "${ACTION_PATH}" --root "${root}"
            echo "Built in $((SECONDS - started)) s"
        fi
    fi
fi

status=0
"${bin}" check "${paths[@]}" "${extra[@]}" --format sarif --output "${sarif}" || status=$?
if [[ ${status} -ge 2 ]]; then
    echo "::error title=mcp-conform::the scan could not run (exit status ${status})"
    exit "${status}"
fi
# The same findings, readable in the job log.
"${bin}" check "${paths[@]}" "${extra[@]}" --format human --color never || true

{
    echo "sarif-file=${sarif}"
    echo "exit-code=${status}"
} >>"${output}"
exit 0
