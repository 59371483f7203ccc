package permission

// The store of trusted workspace rules files also keeps the user's trust
// in a workspace's other files that change what runs (its hooks): one
// store, keyed by kind and the workspace's real path, bound to a hash of
// the content the user saw.

// WorkspaceFileTrusted reports whether the user trusted the workspace
// file of kind ("hooks") in root with this content hash.
func (f *RuleFiles) WorkspaceFileTrusted(kind, root, hash string) (bool, error) {
	return f.trust.trusted(kind+":"+realRoot(root), hash)
}

// TrustWorkspaceFile records the user's trust in the workspace file of
// kind in root as it is now (hash); "" forgets it.
func (f *RuleFiles) TrustWorkspaceFile(kind, root, hash string) error {
	return f.trust.remember(kind+":"+realRoot(root), hash)
}
