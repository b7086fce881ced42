// Package routes is traced's HTTP surface: the chi router, the safety checks every request passes,
// validation against the OpenAPI contract, the handlers and the one error renderer.
package routes
