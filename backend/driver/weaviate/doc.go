package weaviate

// Choices where the spec leaves room, checked against weaviate-server v1.35.2
// (the integration tests hold the evidence):
//
// SSL modes (driver.SSLMode documents the table): Preferred and Required
// (skip verify) encrypt without checking the certificate; Required checks
// chain and host name against the system trust store (the hosted cloud);
// Verify CA checks the chain against the CA file (or the system store) but
// not the host name; Verify Identity checks both. Skip TLS Verification
// disables every check in every HTTPS mode. Disabled is plain HTTP; against
// an HTTPS node it says so instead of failing obscurely.
//
// Health: GET /v1/meta with the credential (not the readiness endpoint), at
// Connect and from driver.Monitor; a 401 is "Authentication failed:", a
// transport or TLS failure "Connection failed:".
//
// Paging: offset+limit never exceeds MaxResults (10,000). A page that would
// cross it is cut there with Grid.Notice; a page starting at it is refused
// (KindUnsupported) before the database is asked.
//
// Filters are ANDed. Their server semantics, as observed: NotEqual and
// ContainsNone include rows where the property is null; IsNull counts an
// empty text or empty array as null; len() counts null as 0. "not contains"
// is Not(Like *v*) (the Not operator exists since v1.33).
//
// Edits: PATCH and DELETE use /v1/objects/<collection>/<uuid> (the PATCH body
// names the class too): the server ignores ?class= on /v1/objects/<uuid>,
// deletes by id wherever it is, fails outright while a multi-tenant collection
// exists, and on a cluster with namespaces answers that path 410. Deleting an
// id the collection does not hold is answered 204, and reported as ok.
//
// Namespaces (1.38+, namespaces.go): a cluster with NAMESPACES_ENABLED runs
// with GraphQL off and RBAC on, and answers 410 to GraphQL and to every path
// that names no collection. The driver sends none: reads go over gRPC, every
// object path names its collection, and a reference given by a uuid alone is
// written naming the collection that holds it. A namespace's user sees its
// collections by their short names; an operator's key sees every namespace's
// as "<namespace>:<collection>", which the driver uses as is and lists in the
// namespace's driver.Table.Group. A 410 or a namespace's refusal is a sentence
// of the driver's, never a status.
//
// Multi-tenant collections: the grid cannot name a tenant (the spec keeps
// tenants out of the UI), so Browse, Count and edits refuse them with a
// message showing how to name the tenant in the editor's GraphQL.
