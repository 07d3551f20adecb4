package weaviate

import "encoding/json"

// typedSchema mirrors the Typed fixture's schema (pure data for unit tests;
// the integration tests read the real one from the server).
const typedSchema = `{
 "class": "Typed",
 "invertedIndexConfig": {"indexNullState": true, "indexPropertyLength": true, "indexTimestamps": true},
 "multiTenancyConfig": {"enabled": false},
 "vectorizer": "none",
 "properties": [
  {"name": "title", "dataType": ["text"]},
  {"name": "body", "dataType": ["text"]},
  {"name": "count", "dataType": ["int"]},
  {"name": "price", "dataType": ["number"]},
  {"name": "active", "dataType": ["boolean"]},
  {"name": "published", "dataType": ["date"]},
  {"name": "tags", "dataType": ["text[]"]},
  {"name": "scores", "dataType": ["int[]"]},
  {"name": "externalId", "dataType": ["uuid"]},
  {"name": "location", "dataType": ["geoCoordinates"]},
  {"name": "phone", "dataType": ["phoneNumber"]},
  {"name": "details", "dataType": ["object"], "nestedProperties": [
    {"name": "color", "dataType": ["text"]}, {"name": "size", "dataType": ["int"]}]},
  {"name": "writtenBy", "dataType": ["Person"]}
 ]
}`

const unindexedSchema = `{
 "class": "Unindexed",
 "invertedIndexConfig": {"indexNullState": false, "indexPropertyLength": false},
 "properties": [
  {"name": "title", "dataType": ["text"]},
  {"name": "count", "dataType": ["int"]},
  {"name": "tags", "dataType": ["text[]"]}
 ]
}`

const namedSchema = `{
 "class": "NamedVectors",
 "properties": [{"name": "title", "dataType": ["text"]}],
 "vectorConfig": {"title_vec": {"vectorizer": {"none": {}}}, "body_vec": {"vectorizer": {"none": {}}}}
}`

func mustClass(s string) *class {
	c := &class{}
	if err := json.Unmarshal([]byte(s), c); err != nil {
		panic(err)
	}
	c.raw = json.RawMessage(s)
	return c
}
