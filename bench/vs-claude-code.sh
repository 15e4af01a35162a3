#!/bin/sh
# Runs Claude Code, then Codex CLI, side by side with mini-claude on the scripted
# scenarios and updates BENCHMARKS.md; extra arguments go to bench/vscc (-peers,
# -pairs, -claude, -codex, -only).
set -e
cd "$(dirname "$0")/.."
exec go run ./bench/vscc -update BENCHMARKS.md "$@"
