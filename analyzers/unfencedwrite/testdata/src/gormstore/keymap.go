package gormstore

import "context"

// Resource is a synced copy of an object, keyed by cluster, namespace and
// name through a helper that builds the key's map of conditions.
type Resource struct {
	ID        int64
	Cluster   string
	Namespace string
	Name      string
	Object    []byte
	Fence     int64
}

func (s *Store) keyOf(cluster, namespace, name string) map[string]any {
	return map[string]any{"cluster": cluster, "namespace": namespace, "name": name}
}

// keyOrAll returns one of two maps: the conditions are not one literal.
func (s *Store) keyOrAll(cluster, name string) map[string]any {
	if name == "" {
		return map[string]any{"cluster": cluster}
	}
	return map[string]any{"cluster": cluster, "name": name}
}

func (s *Store) SyncResource(ctx context.Context, r *Resource, tok int64) error {
	if err := s.lock(ctx, 7); err != nil {
		return err
	}
	// The map's keys are seen through the helper: equality on the key is
	// no fence.
	if err := s.db.WithContext(ctx).Model(&Resource{}).Where(s.keyOf(r.Cluster, r.Namespace, r.Name)).
		Updates(map[string]any{"object": r.Object}).Error; err != nil { // want `DB.Updates \(UPDATE resources\) writes to SQL database without a fencing token`
		return err
	}
	if err := s.db.Model(&Resource{}).Where(s.keyOf(r.Cluster, r.Namespace, r.Name)).Delete(&Resource{}).Error; err != nil { // want `DB.Delete \(DELETE resources\) writes to SQL database without a fencing token`
		return err
	}
	if err := s.db.Where(s.keyOrAll(r.Cluster, r.Name)).Delete(&Resource{}).Error; err != nil { // want `DB.Delete \(DELETE resources\) writes to SQL database while .* could not see its WHERE clause`
		return err
	}
	// Fenced beside the key.
	return checked(s.db.Model(&Resource{}).Where(s.keyOf(r.Cluster, r.Namespace, r.Name)).Where("fence < ?", tok).
		Updates(map[string]any{"object": r.Object, "fence": tok}))
}
