#!/bin/sh
# Runs Claude Code and mini-claude side by side on the scripted scenarios and
# updates BENCHMARKS.md; extra arguments go to bench/vscc (-pairs, -claude, -only).
set -e
cd "$(dirname "$0")/.."
exec go run ./bench/vscc -update BENCHMARKS.md "$@"
