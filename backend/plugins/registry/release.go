package registry

import "sort"

// AddRelease puts version v of plugin p into the index: p's metadata (everything but its
// versions) replaces the index's, and v replaces a version of the same number. Versions are
// kept newest first. The publishing tool uses it.
func (x *Index) AddRelease(p Plugin, v Version) {
	x.SchemaVersion = SchemaVersion
	var cur *Plugin
	for i := range x.Plugins {
		if x.Plugins[i].Name == p.Name {
			cur = &x.Plugins[i]
		}
	}
	if cur == nil {
		x.Plugins = append(x.Plugins, Plugin{Name: p.Name})
		cur = &x.Plugins[len(x.Plugins)-1]
	}
	versions := cur.Versions
	*cur = p
	cur.Versions = nil
	for _, old := range versions {
		if old.Version != v.Version {
			cur.Versions = append(cur.Versions, old)
		}
	}
	cur.Versions = append(cur.Versions, v)
	sort.SliceStable(cur.Versions, func(i, j int) bool {
		return CompareVersions(cur.Versions[i].Version, cur.Versions[j].Version) > 0
	})
	sort.SliceStable(x.Plugins, func(i, j int) bool { return x.Plugins[i].Name < x.Plugins[j].Name })
}
