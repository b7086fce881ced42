// Package quickack keeps a TCP connection acknowledging at once: the V8 inspector writes
// messages back to back without TCP_NODELAY, and a delayed ACK holds the second one ~40 ms. The
// CDP client and the benchmarks' bare client both read through it.
package quickack
