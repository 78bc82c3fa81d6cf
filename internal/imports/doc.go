// Package imports holds no code: its test is the project's import rules,
// which package may import which (docs/architecture.md). scripts/test runs
// it beside the raylib and pure-engine checks.
package imports
