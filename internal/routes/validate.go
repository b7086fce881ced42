package routes

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/go-chi/chi/v5"
	"github.com/go-playground/validator/v10"

	"traced/api"
)

// contract validates requests against the embedded OpenAPI document.
type contract struct {
	doc    *openapi3.T
	router routers.Router
	routes map[string]*routers.Route // by method and path as chi routes them ("POST /api/debug/{session}/eval")
}

// LoadContract parses and checks the embedded spec; a broken spec is a build defect, found at start.
func LoadContract() (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(api.Spec)
	if err != nil {
		return nil, fmt.Errorf("load openapi.yaml: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("validate openapi.yaml: %w", err)
	}
	return doc, nil
}

func newContract() (*contract, error) {
	doc, err := LoadContract()
	if err != nil {
		return nil, err
	}
	doc.Servers = nil // match any host and port: the Host check is ours
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("openapi router: %w", err)
	}
	return &contract{doc: doc, router: router, routes: operations(doc)}, nil
}

// operations lists the contract's operations by method and path. Their spec has no global
// security: requireToken has checked the token before validation, and kin-openapi would
// otherwise check it again in every request (with NoopAuthenticationFunc, for nothing).
func operations(doc *openapi3.T) map[string]*routers.Route {
	unsecured := *doc
	unsecured.Security = nil
	out := map[string]*routers.Route{}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			op := *op
			op.Security = nil
			out[method+" "+path] = &routers.Route{Spec: &unsecured, Path: path, PathItem: item, Method: method, Operation: &op}
		}
	}
	return out
}

// validation is every request's validation options.
var validation = &openapi3filter.Options{
	AuthenticationFunc:  openapi3filter.NoopAuthenticationFunc, // checked before, by requireToken
	SkipSettingDefaults: true,                                  // handlers apply defaults
}

// route finds a request's operation in the contract: by the path chi matched, which is written
// as the contract writes it, with chi's path parameters; through the contract's own router (every
// path's regular expression in turn) for a route chi knows by another pattern.
func (c *contract) route(r *http.Request) (*routers.Route, map[string]string, error) {
	if rc := chi.RouteContext(r.Context()); rc != nil {
		if route := c.routes[r.Method+" "+rc.RoutePattern()]; route != nil {
			params := make(map[string]string, len(rc.URLParams.Keys))
			for i, k := range rc.URLParams.Keys {
				params[k] = rc.URLParams.Values[i]
			}
			return route, params, nil
		}
	}
	return c.router.FindRoute(r)
}

// validateRequest checks a request's parameters and body against the contract. It runs after the
// body cap, so the validator never reads more than MaxBodyBytes.
func (a *app) validateRequest(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route, params, err := a.contract.route(r)
		if err != nil {
			// chi routed it, so the contract lacks it: a defect the route/spec test catches.
			a.writeError(w, r, newError(http.StatusNotFound, "not_found", "no such route in the contract", "GET /api/openapi.yaml lists the routes"))
			return
		}
		in := &openapi3filter.RequestValidationInput{
			Request:    r,
			PathParams: params,
			Route:      route,
			Options:    validation,
		}
		if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
			a.writeError(w, r, badRequest(describeValidation(err), "GET /api/openapi.yaml gives the schema of "+r.Method+" "+route.Path))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// describeValidation names the field that failed, e.g. `body field "target": ...` or
// `query parameter "limit": ...`.
func describeValidation(err error) string {
	var re *openapi3filter.RequestError
	if !errors.As(err, &re) {
		return err.Error()
	}
	var se *openapi3.SchemaError
	reason := re.Reason
	if errors.As(re.Err, &se) {
		var ptr []string
		ptr, reason = oneOfCause(se)
		if len(ptr) > 0 && re.RequestBody != nil {
			return fmt.Sprintf("body field %q: %s", strings.Join(ptr, "."), reason)
		}
	} else if re.Err != nil {
		if reason != "" {
			reason += ": "
		}
		reason += re.Err.Error()
	}
	switch {
	case re.Parameter != nil:
		return fmt.Sprintf("%s parameter %q: %s", re.Parameter.In, re.Parameter.Name, reason)
	case re.RequestBody != nil:
		return "body: " + reason
	}
	return reason
}

// oneOfCause gives the path and reason of a schema error. When a value matches no branch of a
// oneOf (a start breakpoint is a string or an object), the failure of the branch of the value's
// own type says what is wrong ("doesn't match the regular expression"), where the oneOf error
// only says that nothing matched.
func oneOfCause(se *openapi3.SchemaError) ([]string, string) {
	ptr, reason := se.JSONPointer(), se.Reason
	for se.SchemaField == "oneOf" {
		var branches openapi3.MultiError
		if !errors.As(se.Origin, &branches) {
			break
		}
		var next *openapi3.SchemaError
		for _, err := range branches {
			var be *openapi3.SchemaError
			if errors.As(err, &be) && be.SchemaField != "type" {
				next = be
				break
			}
		}
		if next == nil {
			break
		}
		se = next
		ptr, reason = se.JSONPointer(), se.Reason // the branch's path is whole: it starts at the body
	}
	return ptr, reason
}

// validatorOf gives the validator of the struct rules the schema cannot state (validator/v10 tags on api types). It is
// built on the first request, not at package init: the CLI's client commands link this package
// and must not pay for it.
var validatorOf = sync.OnceValue(func() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		return name
	})
	return v
})

func checkStruct(v any) error {
	err := validatorOf().Struct(v)
	var ve validator.ValidationErrors
	if errors.As(err, &ve) && len(ve) > 0 {
		f := ve[0]
		return badRequest(fmt.Sprintf("body field %q fails rule %q", jsonPath(f.Namespace()), f.Tag()),
			"GET /api/openapi.yaml gives the schema")
	}
	return err
}

// jsonPath drops the struct name from validator's "StartRequest.env[X]".
func jsonPath(ns string) string {
	if _, rest, ok := strings.Cut(ns, "."); ok {
		return rest
	}
	return ns
}
