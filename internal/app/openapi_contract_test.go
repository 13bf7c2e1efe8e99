package app_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/latchkit/latch/api"
)

// contract is api/openapi.yaml read for the tests: its operations and a
// compiled JSON Schema 2020-12 validator for every response body and
// header it describes.
type contract struct {
	doc map[string]any
	// schemas are the compiled schemas by the JSON pointer (in doc) of the
	// schema object they were compiled from.
	schemas map[string]*jsonschema.Schema
	// seen records the statuses each operation answered in a test, by
	// "listener METHOD /path" (the document's method and path).
	seen map[string]map[int]bool
}

// httpMethods are the operation keys of an OpenAPI path item.
var httpMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

const schemasURL = "https://latch.invalid/openapi/schemas.json"

// loadContract parses the embedded document and compiles every response
// schema in it, so a schema that is not valid JSON Schema fails here.
func loadContract(tb testing.TB) *contract {
	tb.Helper()
	var y any
	if err := yaml.Unmarshal(api.OpenAPI, &y); err != nil {
		tb.Fatalf("api/openapi.yaml: %v", err)
	}
	j, err := json.Marshal(y)
	if err != nil {
		tb.Fatalf("api/openapi.yaml is not JSON-compatible: %v", err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		tb.Fatal(err)
	}
	c := &contract{doc: v.(map[string]any), schemas: map[string]*jsonschema.Schema{}, seen: map[string]map[int]bool{}}
	if c.doc["openapi"] != "3.1.0" {
		tb.Fatalf("openapi: %v, want 3.1.0", c.doc["openapi"])
	}

	c.checkRefs(tb, c.doc, "#")

	comp := jsonschema.NewCompiler()
	comp.DefaultDraft(jsonschema.Draft2020)
	comp.AssertFormat()
	defs := rewriteRefs(tb, c.get(tb, "#/components/schemas"))
	if err := comp.AddResource(schemasURL, map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}); err != nil {
		tb.Fatal(err)
	}
	var ptrs []string
	for _, op := range c.operations(tb) {
		if rb, ok := op.obj["requestBody"]; ok {
			rb, ptr := c.resolve(tb, rb, op.ptr+"/requestBody")
			for mt, media := range asMap(rb["content"]) {
				if _, ok := asMap(media)["schema"]; ok {
					ptrs = append(ptrs, ptr+"/content/"+escape(mt)+"/schema")
				}
			}
		}
		for code := range op.responses {
			resp, ptr := c.resolve(tb, op.responses[code], op.ptr+"/responses/"+code)
			for mt, media := range asMap(resp["content"]) {
				if _, ok := asMap(media)["schema"]; ok {
					ptrs = append(ptrs, ptr+"/content/"+escape(mt)+"/schema")
				}
			}
			for name, h := range asMap(resp["headers"]) {
				h, hptr := c.resolve(tb, h, ptr+"/headers/"+escape(name))
				if _, ok := h["schema"]; ok {
					ptrs = append(ptrs, hptr+"/schema")
				}
			}
		}
	}
	for i, ptr := range ptrs {
		if c.schemas[ptr] != nil {
			continue
		}
		loc := fmt.Sprintf("https://latch.invalid/openapi/schema-%d.json", i)
		sch := rewriteRefs(tb, c.get(tb, ptr)).(map[string]any)
		sch["$schema"] = "https://json-schema.org/draft/2020-12/schema"
		if err := comp.AddResource(loc, sch); err != nil {
			tb.Fatal(err)
		}
		compiled, err := comp.Compile(loc)
		if err != nil {
			tb.Fatalf("%s: %v", ptr, err)
		}
		c.schemas[ptr] = compiled
	}
	return c
}

// checkRefs fails on a $ref that points nowhere in the document.
func (c *contract) checkRefs(tb testing.TB, v any, where string) {
	tb.Helper()
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if ref, ok := e.(string); k == "$ref" && ok {
				if !strings.HasPrefix(ref, "#/") {
					tb.Errorf("%s: $ref %q is not in the document", where, ref)
					continue
				}
				c.get(tb, ref)
			}
			c.checkRefs(tb, e, where+"/"+escape(k))
		}
	case []any:
		for i, e := range v {
			c.checkRefs(tb, e, where+"/"+strconv.Itoa(i))
		}
	}
}

// operation is one operation of the document.
type operation struct {
	path, method string // as in the document ("get")
	ptr          string // its JSON pointer
	obj          map[string]any
	responses    map[string]any
}

func (c *contract) operations(tb testing.TB) []operation {
	tb.Helper()
	var out []operation
	for path, item := range asMap(c.doc["paths"]) {
		for _, method := range httpMethods {
			obj, ok := asMap(item)[method].(map[string]any)
			if !ok {
				continue
			}
			out = append(out, operation{path: path, method: method, ptr: "#/paths/" + escape(path) + "/" + method, obj: obj, responses: asMap(obj["responses"])})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ptr < out[j].ptr })
	return out
}

// get returns the value at a JSON pointer of the document ("#/a/b").
func (c *contract) get(tb testing.TB, ptr string) any {
	tb.Helper()
	var v any = c.doc
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "#/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		m, ok := v.(map[string]any)
		if !ok {
			tb.Fatalf("%s: no %q", ptr, tok)
		}
		if v, ok = m[tok]; !ok {
			tb.Fatalf("%s: no %q", ptr, tok)
		}
	}
	return v
}

// resolve follows a $ref of a response or header object.
func (c *contract) resolve(tb testing.TB, v any, ptr string) (map[string]any, string) {
	tb.Helper()
	m := asMap(v)
	if ref, ok := m["$ref"].(string); ok {
		return asMap(c.get(tb, ref)), ref
	}
	return m, ptr
}

// rewriteRefs copies a schema with its $refs to #/components/schemas/X
// pointed at the $defs of the schemas resource.
func rewriteRefs(tb testing.TB, v any) any {
	tb.Helper()
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if k == "$ref" {
				ref, _ := e.(string)
				name, ok := strings.CutPrefix(ref, "#/components/schemas/")
				if !ok {
					tb.Fatalf("schema $ref %q: only #/components/schemas/ is supported", ref)
				}
				out[k] = schemasURL + "#/$defs/" + name
				continue
			}
			out[k] = rewriteRefs(tb, e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = rewriteRefs(tb, e)
		}
		return out
	}
	return v
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }

func escape(tok string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(tok) }

// call is one request of TestOpenAPI_Responses.
type call struct {
	op     string // the document's operation, "GET /v1/networks"
	on     string // the listener: "" for api, "admin", "frame"
	method string // the request's method when it is not the operation's
	url    string // path and query
	body   string
	hdr    []string
	// mixed: the body holds entries the route refuses one by one while
	// serving the rest (a JSON-RPC batch), so it is not a valid request.
	mixed bool
	// noRedirect: the answer checked is a redirect itself, not where it goes.
	noRedirect bool
}

// check validates one answer against the document: its status must be one
// the operation lists, its Content-Type one of that response's, and its
// body and headers must match their schemas.
func (c *contract) check(t *testing.T, cl call, status int, header http.Header, body []byte) {
	t.Helper()
	listener := cl.on
	if listener == "" {
		listener = "api"
	}
	method, path, _ := strings.Cut(cl.op, " ")
	ptr := "#/paths/" + escape(path) + "/" + strings.ToLower(method)
	op := asMap(c.get(t, ptr))
	if op == nil {
		t.Fatalf("%s: no operation %s in the document", cl.url, cl.op)
	}
	if status < 300 && cl.body != "" && !cl.mixed {
		c.checkRequest(t, cl, op, ptr)
	}
	key := listener + " " + cl.op
	if c.seen[key] == nil {
		c.seen[key] = map[int]bool{}
	}
	c.seen[key][status] = true
	code := strconv.Itoa(status)
	raw, ok := asMap(op["responses"])[code]
	if !ok {
		t.Errorf("%s %s answered %d, which the document does not list for %s: %.300s", methodOr(cl), cl.url, status, cl.op, body)
		return
	}
	resp, rptr := c.resolve(t, raw, ptr+"/responses/"+code)
	for name, h := range asMap(resp["headers"]) {
		_, hptr := c.resolve(t, h, rptr+"/headers/"+escape(name))
		if v := header.Get(name); v != "" && c.schemas[hptr+"/schema"] != nil {
			if err := c.schemas[hptr+"/schema"].Validate(v); err != nil {
				t.Errorf("%s %s: header %s: %v", methodOr(cl), cl.url, name, err)
			}
		}
	}
	content := asMap(resp["content"])
	if len(content) == 0 {
		if len(body) != 0 {
			t.Errorf("%s %s: %d with a body (%.200s); the document says none", methodOr(cl), cl.url, status, body)
		}
		return
	}
	mt, _, _ := mime.ParseMediaType(header.Get("Content-Type"))
	media := mt
	if _, ok := content[mt]; !ok {
		media = strings.SplitN(mt, "/", 2)[0] + "/*"
	}
	if _, ok := content[media]; !ok {
		t.Errorf("%s %s: %d with Content-Type %q; the document lists %v", methodOr(cl), cl.url, status, mt, keys(content))
		return
	}
	sch := c.schemas[rptr+"/content/"+escape(media)+"/schema"]
	if sch == nil {
		return
	}
	var inst any = string(body)
	if media == "application/json" {
		var err error
		if inst, err = jsonschema.UnmarshalJSON(bytes.NewReader(body)); err != nil {
			t.Errorf("%s %s: %d body is not JSON: %v: %.300s", methodOr(cl), cl.url, status, err, body)
			return
		}
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("%s %s: %d body does not match the document:\n%v\nbody: %.600s", methodOr(cl), cl.url, status, err, body)
	}
}

// checkRequest validates the body of a request the route accepted against
// the operation's request body schema: what latchd takes must be what the
// document says it takes.
func (c *contract) checkRequest(t *testing.T, cl call, op map[string]any, ptr string) {
	t.Helper()
	raw, ok := op["requestBody"]
	if !ok {
		t.Errorf("%s %s: accepted a body, the document describes none", methodOr(cl), cl.url)
		return
	}
	rb, rptr := c.resolve(t, raw, ptr+"/requestBody")
	mt := "application/json"
	for i := 0; i+1 < len(cl.hdr); i += 2 {
		if strings.EqualFold(cl.hdr[i], "Content-Type") {
			mt, _, _ = mime.ParseMediaType(cl.hdr[i+1])
		}
	}
	if _, ok := asMap(rb["content"])[mt]; !ok {
		t.Errorf("%s %s: accepted a %s body; the document lists %v", methodOr(cl), cl.url, mt, keys(asMap(rb["content"])))
		return
	}
	sch := c.schemas[rptr+"/content/"+escape(mt)+"/schema"]
	if sch == nil || mt == "application/x-www-form-urlencoded" {
		return
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(cl.body))
	if err != nil {
		t.Errorf("%s %s: accepted a body that is not JSON: %.200s", methodOr(cl), cl.url, cl.body)
		return
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("%s %s: accepted a request body the document's schema refuses:\n%v\nbody: %.300s", methodOr(cl), cl.url, err, cl.body)
	}
}

func methodOr(cl call) string {
	if cl.method != "" {
		return cl.method
	}
	m, _, _ := strings.Cut(cl.op, " ")
	return m
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// do sends cl to the listener's base URL and checks the answer.
func (c *contract) do(t *testing.T, bases map[string]string, cl call) (int, http.Header, []byte) {
	t.Helper()
	var rd io.Reader
	if cl.body != "" {
		rd = strings.NewReader(cl.body)
	}
	req, err := http.NewRequest(methodOr(cl), bases[cl.on]+cl.url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if cl.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(cl.hdr); i += 2 {
		req.Header.Set(cl.hdr[i], cl.hdr[i+1])
	}
	client := http.DefaultClient
	if cl.noRedirect {
		client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	c.check(t, cl, resp.StatusCode, resp.Header, b)
	return resp.StatusCode, resp.Header, b
}
