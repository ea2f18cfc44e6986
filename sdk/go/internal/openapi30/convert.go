// Package openapi30 rewrites our OpenAPI 3.1 document as the OpenAPI 3.0 document oapi-codegen
// reads fully (sdk/go/README.md "Regenerate"). The served document (client/openapi.json) stays the
// one source: this conversion is a step of the generation, never a second document kept by hand.
//
// What it rewrites, and only that (anything else of 3.1 is refused, so a new construct is seen at
// generation time instead of generating silently wrong code):
//   - `openapi: 3.1.x` becomes `3.0.3`; the top-level `webhooks` (3.1 only) is dropped: their
//     payloads are also components/schemas (WebhookEvent and its members), which are generated;
//   - `type: [T, "null"]` becomes `type: T, nullable: true`;
//   - `type: "null"` alone becomes `nullable: true` (3.0 has no null type);
//   - `oneOf: [S, {type: "null"}]` becomes S made nullable (`allOf: [S], nullable: true` for a $ref);
//   - a numeric `exclusiveMinimum`/`exclusiveMaximum` becomes `minimum`/`maximum` with the boolean;
//   - `const: v` becomes `enum: [v]`;
//   - a schema's `examples: [...]` becomes `example:` (its first item).
package openapi30

import (
	"fmt"
	"sort"
	"strings"
)

// Convert rewrites doc (decoded JSON) in place and returns it.
func Convert(doc map[string]any) (map[string]any, error) {
	version, _ := doc["openapi"].(string)
	if !strings.HasPrefix(version, "3.1.") {
		return nil, fmt.Errorf("openapi30: expected an OpenAPI 3.1 document, got openapi %q", version)
	}
	doc["openapi"] = "3.0.3"
	delete(doc, "webhooks")
	if err := walk(doc, "#", false); err != nil {
		return nil, err
	}
	return doc, nil
}

// schemaKeys are the keys whose value is one schema; schemaListKeys hold a list of schemas and
// schemaMapKeys a map of them. Walking through these marks the nodes that are schemas, so that
// `examples` of a media type (a map of Example objects) is never mistaken for a schema's.
var (
	schemaKeys     = map[string]bool{"schema": true, "items": true, "not": true, "additionalProperties": true}
	schemaListKeys = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true}
	schemaMapKeys  = map[string]bool{"properties": true, "schemas": true}
)

func walk(node any, path string, isSchema bool) error {
	switch value := node.(type) {
	case map[string]any:
		if isSchema {
			if err := convertSchema(value, path); err != nil {
				return err
			}
		}
		for _, key := range sortedKeys(value) {
			child := value[key]
			childPath := path + "/" + key
			switch {
			case key == "example", key == "examples", key == "enum", key == "default":
				continue // values (a media type's examples too), never schemas
			case schemaKeys[key]:
				if err := walk(child, childPath, true); err != nil {
					return err
				}
			case schemaListKeys[key]:
				list, _ := child.([]any)
				for i, item := range list {
					if err := walk(item, fmt.Sprintf("%s/%d", childPath, i), true); err != nil {
						return err
					}
				}
			case schemaMapKeys[key] && (isSchema || key == "schemas"):
				members, _ := child.(map[string]any)
				for _, name := range sortedKeys(members) {
					if err := walk(members[name], childPath+"/"+name, true); err != nil {
						return err
					}
				}
			default:
				if err := walk(child, childPath, false); err != nil {
					return err
				}
			}
		}
	case []any:
		for i, item := range value {
			if err := walk(item, fmt.Sprintf("%s/%d", path, i), false); err != nil {
				return err
			}
		}
	}
	return nil
}

// convertSchema rewrites one schema object's own keywords (its subschemas are walked after).
func convertSchema(schema map[string]any, path string) error {
	// First, so that the keywords of a member merged into this schema are converted below.
	if members, ok := schema["oneOf"].([]any); ok {
		if err := collapseNullableOneOf(schema, members, path); err != nil {
			return err
		}
	}
	if schema["type"] == "null" {
		// Only null (a field always null in that event): 3.0 has no null type; any value, nullable.
		delete(schema, "type")
		schema["nullable"] = true
	}
	if types, ok := schema["type"].([]any); ok {
		nonNull, nullable := withoutNull(types)
		if len(nonNull) != 1 {
			return fmt.Errorf("openapi30: %s: type %v has no OpenAPI 3.0 form", path, types)
		}
		schema["type"] = nonNull[0]
		if nullable {
			schema["nullable"] = true
		}
	}
	for _, bound := range []struct{ exclusive, inclusive string }{
		{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"},
	} {
		if limit, ok := schema[bound.exclusive].(float64); ok {
			if _, both := schema[bound.inclusive]; both {
				return fmt.Errorf("openapi30: %s: both %s and %s", path, bound.exclusive, bound.inclusive)
			}
			schema[bound.inclusive] = limit
			schema[bound.exclusive] = true
		}
	}
	if constant, ok := schema["const"]; ok {
		schema["enum"] = []any{constant}
		delete(schema, "const")
	}
	if examples, ok := schema["examples"].([]any); ok {
		if len(examples) > 0 {
			schema["example"] = examples[0]
		}
		delete(schema, "examples")
	}
	for _, key := range []string{"prefixItems", "if", "then", "else", "dependentSchemas", "unevaluatedProperties", "contentMediaType", "$defs"} {
		if _, ok := schema[key]; ok {
			return fmt.Errorf("openapi30: %s: %s has no OpenAPI 3.0 form", path, key)
		}
	}
	return nil
}

// collapseNullableOneOf turns `oneOf: [S, {type: "null"}]` into S made nullable. A oneOf of
// several non-null members stays a oneOf (a null member there has no 3.0 form: refused).
func collapseNullableOneOf(schema map[string]any, members []any, path string) error {
	var kept []any
	nullable := false
	for _, member := range members {
		if m, ok := member.(map[string]any); ok && len(m) == 1 && m["type"] == "null" {
			nullable = true
			continue
		}
		kept = append(kept, member)
	}
	if !nullable {
		return nil
	}
	if len(kept) != 1 {
		return fmt.Errorf("openapi30: %s: oneOf with null and %d other members has no OpenAPI 3.0 form", path, len(kept))
	}
	delete(schema, "oneOf")
	only, _ := kept[0].(map[string]any)
	if _, isRef := only["$ref"]; isRef {
		schema["allOf"] = []any{only}
	} else {
		for key, v := range only {
			if _, clash := schema[key]; clash {
				return fmt.Errorf("openapi30: %s: oneOf member's %s clashes with the schema's own", path, key)
			}
			schema[key] = v
		}
	}
	schema["nullable"] = true
	return nil
}

func withoutNull(types []any) (nonNull []any, nullable bool) {
	for _, t := range types {
		if t == "null" {
			nullable = true
		} else {
			nonNull = append(nonNull, t)
		}
	}
	return nonNull, nullable
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}
