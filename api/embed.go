// Package api holds latchd's HTTP API contract: openapi.yaml, an OpenAPI 3.1
// document of every route latchd serves, embedded so that latchd serves the
// very file its tests check the handlers against.
package api

import (
	_ "embed"
	"net/http"
	"strconv"
)

// OpenAPI is the text of openapi.yaml.
//
//go:embed openapi.yaml
var OpenAPI []byte

// MediaType is the media type of OpenAPI (RFC 9512).
const MediaType = "application/yaml"

// Handler serves OpenAPI (GET /openapi.yaml). The document changes only
// with a new latchd, so caches may keep it for a while.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", MediaType)
		h.Set("Content-Length", strconv.Itoa(len(OpenAPI)))
		h.Set("Cache-Control", "public, max-age=300")
		h.Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusOK)
		w.Write(OpenAPI)
	})
}
