package postgres

import "time"

// SetWalkIdle shortens how long d's cursor walks wait for their next step, so a test sees
// an abandoned walk released.
func SetWalkIdle(d *Driver, idle time.Duration) {
	d.walks.mu.Lock()
	defer d.walks.mu.Unlock()
	d.walks.idle = idle
}
