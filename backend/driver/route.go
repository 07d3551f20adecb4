package driver

// Router is what a driver may offer beyond the required contract: how the connection reaches
// the database where that is not the usual way, in words for the connection's status line
// (e.g. "reads over gRPC-Web on the REST port: 127.0.0.1:50051 does not answer"); "" is the
// usual way. The host shows it as it is and never reads it for a decision.
type Router interface{ Route() string }
