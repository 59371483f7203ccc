// Package release holds what scripts/release makes to what a user
// installs without a toolchain: a binary for every platform the release
// names, each an executable of its system and processor, listed in
// SHA256SUMS; the npm packages, whose shim runs the platform package's
// binary and passes signals on. The checks are its tests (the VS Code
// .vsix with the binary inside is editors/vscode/e2e's). A package of its
// own, so that six cross-builds have their own test time, not the
// binary's.
package release
