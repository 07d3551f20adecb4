package weaviate

import "app/backend/driver"

// Type is the connection type this driver serves.
const Type = "weaviate"

// hostedDomains are the domains of the hosted Weaviate Cloud service: its clusters answer on
// 443 over HTTPS and need an API key.
var hostedDomains = []string{".weaviate.cloud", ".weaviate.network", ".semi.network"}

// Describe is the driver's description (contract 3): the connection type, the form's fields
// (protocol 2's, with Weaviate's words), the hosted-cloud suggestion and the address.
func Describe() driver.Description {
	fields := driver.ProtocolTwoFields()
	help := map[string]string{
		driver.KeyPort:     "8080 for a local node; the hosted cloud answers on 443",
		driver.KeyGRPCHost: "Where the driver reads when the server has GraphQL off; empty uses the host (grpc-<host> on a hosted cluster)",
		driver.KeyGRPCPort: "Empty: 50051, or 443 on a hosted cluster",
	}
	placeholder := map[string]string{driver.KeyGRPCHost: "same as Host", driver.KeyGRPCPort: "50051"}
	for i := range fields {
		f := &fields[i]
		if h, ok := help[f.Key]; ok {
			f.Help = h
		}
		if p, ok := placeholder[f.Key]; ok {
			f.Placeholder = p
		}
		if f.Key == driver.KeySSLMode {
			f.OptionHelp = map[string]string{string(driver.SSLDisabled): "Plain HTTP"}
			for _, m := range driver.SSLModes()[1:] {
				f.OptionHelp[string(m)] = "HTTPS"
			}
		}
	}
	return driver.Description{
		Types: []driver.ConnectionType{{
			Name: Type, Label: "Weaviate",
			Summary: "Vector database: collections as tables, GraphQL reads and REST writes",
		}},
		Settings: fields,
		Suggestions: []driver.Suggestion{{
			Key: driver.KeyHost, Suffixes: hostedDomains,
			Set:    map[string]string{driver.KeyPort: "443", driver.KeySSLMode: string(driver.SSLRequired), driver.KeyAuthMethod: string(driver.AuthAPIKey)},
			Text:   "This is a Weaviate Cloud cluster: it answers on port 443 over HTTPS and needs an API key.",
			Action: "Use port 443, SSL Required and API Key",
		}},
		Address: []string{driver.KeyHost, driver.KeyPort},
		Words:   words(),
	}
}

// words are what AI clients read about a Weaviate connection: the server instructions'
// sentence (issue 12 pins its examples) and the prompts' notes.
func words() *driver.Words {
	return &driver.Words{
		Language: "GraphQL reads and REST lines",
		Table:    "collection",
		Row:      "object",
		Instructions: "A Weaviate connection does not speak SQL: reads are GraphQL, e.g. { Get { Article(limit: 5) { title _additional { id } } } }, " +
			"and writes are REST lines, e.g. POST /v1/objects {\"class\":\"Article\",\"properties\":{\"title\":\"New\"}}.",
		Notes: "This is Weaviate: collections are tables, objects are rows, and uuid is the primary key. " +
			"Reads are GraphQL, not SQL, for example:\n" +
			"  { Get { Article(where: {path: [\"wordCount\"], operator: GreaterThan, valueInt: 500}, limit: 10) { title _additional { id } } } }\n" +
			"Writes are REST lines, each approved by the user, for example:\n" +
			"  PATCH /v1/objects/<uuid>?class=Article {\"properties\": {\"title\": \"New title\"}}\n\n",
		ActivateTenant: `PUT /v1/schema/{table}/tenants [{"name":{tenant},"activityStatus":"ACTIVE"}]`,
	}
}
