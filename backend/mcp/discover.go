package mcp

import "context"

// handleDiscover serves server/discover (SPEC.md B "Result envelope",
// server/discover table). It takes only _meta. shapeResult adds resultType,
// the cache hints and serverInfo with title and websiteUrl.
func (s *Server) handleDiscover(ctx context.Context, req *Request[NoParams]) (any, error) {
	return s.shapedOnce(req.Call, cacheKey{method: "server/discover", era: req.Era}, func() (any, *Error) {
		return map[string]any{
			"supportedVersions": SupportedVersions(),
			"capabilities":      s.capabilities(EraModern),
			"instructions":      s.opts.Instructions,
		}, nil
	})
}
