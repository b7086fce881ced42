package api

import _ "embed"

// Spec is the OpenAPI contract, the single source of truth for routes and schemas.
//
//go:embed openapi.yaml
var Spec []byte
