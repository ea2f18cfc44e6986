package openapi30

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func decode(t *testing.T, text string) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestConvertRewritesTheConstructsOfOurDocument(t *testing.T) {
	doc := decode(t, `{"openapi":"3.1.0","webhooks":{"x":{}},"paths":{"/p":{"get":{"responses":{"200":{"content":{"application/json":{
	  "schema":{"$ref":"#/components/schemas/S"},
	  "examples":{"one":{"value":{"type":["kept","null"]}}}}}}}}}},
	"components":{"schemas":{"S":{"type":"object","properties":{
	  "a":{"type":["string","null"],"examples":["x","y"]},
	  "b":{"oneOf":[{"$ref":"#/components/schemas/T"},{"type":"null"}],"description":"d"},
	  "c":{"oneOf":[{"type":"number","exclusiveMinimum":0},{"type":"null"}]},
	  "d":{"const":"1"},
	  "e":{"type":"null"}}},"T":{"type":"string"}}}}`)
	got, err := Convert(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := decode(t, `{"openapi":"3.0.3","paths":{"/p":{"get":{"responses":{"200":{"content":{"application/json":{
	  "schema":{"$ref":"#/components/schemas/S"},
	  "examples":{"one":{"value":{"type":["kept","null"]}}}}}}}}}},
	"components":{"schemas":{"S":{"type":"object","properties":{
	  "a":{"type":"string","nullable":true,"example":"x"},
	  "b":{"allOf":[{"$ref":"#/components/schemas/T"}],"nullable":true,"description":"d"},
	  "c":{"type":"number","minimum":0,"exclusiveMinimum":true,"nullable":true},
	  "d":{"enum":["1"]},
	  "e":{"nullable":true}}},"T":{"type":"string"}}}}`)
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		t.Fatalf("got %s", g)
	}
}

func TestConvertRefusesWhatHasNo30Form(t *testing.T) {
	for _, schema := range []string{
		`{"type":["string","integer"]}`,
		`{"oneOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]}`,
		`{"prefixItems":[{"type":"string"}]}`,
	} {
		doc := decode(t, `{"openapi":"3.1.0","components":{"schemas":{"S":`+schema+`}}}`)
		if _, err := Convert(doc); err == nil || !strings.Contains(err.Error(), "#/components/schemas/S") {
			t.Errorf("%s: got %v, want an error naming the schema", schema, err)
		}
	}
	if _, err := Convert(decode(t, `{"openapi":"3.0.3"}`)); err == nil {
		t.Error("a 3.0 document was accepted")
	}
}

// The committed document converts, and nothing of 3.1 is left in it.
func TestConvertTheServedDocument(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "client", "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Convert(decode(t, string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	var leftover []string
	var visit func(node any, path string)
	visit = func(node any, path string) {
		switch v := node.(type) {
		case map[string]any:
			if _, ok := v["type"].([]any); ok {
				leftover = append(leftover, path+" type list")
			}
			if v["type"] == "null" {
				leftover = append(leftover, path+" type null")
			}
			if _, ok := v["const"]; ok {
				leftover = append(leftover, path+" const")
			}
			if _, ok := v["exclusiveMinimum"].(float64); ok {
				leftover = append(leftover, path+" numeric exclusiveMinimum")
			}
			for key, child := range v {
				if key != "example" && key != "examples" {
					visit(child, path+"/"+key)
				}
			}
		case []any:
			for _, child := range v {
				visit(child, path)
			}
		}
	}
	visit(got, "#")
	if len(leftover) > 0 || got["webhooks"] != nil {
		t.Fatalf("3.1 constructs left: %v", leftover)
	}
}
