package tools

import (
	"testing"

	"app/internal/weaviatetest"
)

// TestMain stops the shared weaviate-server nodes the tests start (internal/weaviatetest).
func TestMain(m *testing.M) { weaviatetest.Main(m) }
