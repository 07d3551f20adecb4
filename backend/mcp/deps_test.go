package mcp

import (
	"os/exec"
	"strings"
	"testing"
)

// ARCHITECTURE.md 2: backend/mcp is the protocol core; it imports no domain
// package (connections, drivers, settings, secrets) and none of the features
// or policies that import it (tools, resources, prompts, auth, approval,
// activity): backend/core wires those in through Options.
func TestProtocolCoreImportsNoDomainOrFeaturePackage(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "app/backend/mcp").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := map[string]bool{
		"app/backend/mcp": true, "app/backend/mcp/internal/wire": true,
		"app/backend/mcp/session": true, "app/backend/product": true,
		// The kernel's word on a Unix socket's peer: an OS fact, no domain (ListenUnix).
		"app/backend/peercred": true,
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "app/") && !allowed[dep] {
			t.Errorf("backend/mcp depends on %s", dep)
		}
	}
}
