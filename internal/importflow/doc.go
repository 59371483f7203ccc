// Package importflow owns the import rule of docs/design.md §3: which of
// the module's packages may import which, so that the flow stays one way
// (front ends → controller → agent → tools → permission, provider at the
// bottom) and no package learns of a layer above it.
//
// rules is the rule as data and check applies it to what `go list -json`
// says of the module; the package's test runs go list on the repository,
// so the rule holds without any check outside it (go test ./... runs it).
// A change of the rule is a change of rules and of docs/design.md §3
// together.
//
// go list reports the imports of the files built for the host's GOOS and
// GOARCH: a file behind another build constraint is not checked.
package importflow
