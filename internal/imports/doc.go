// Package imports holds no code: its test is the project's import rules in
// two tables, which package may import which (rules) and what a package
// may reach at any depth (reach: raylib only in the display and the
// program, the pure rule engines, no GPIO driver under the configuration);
// docs/architecture.md. scripts/test runs it.
package imports
